package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// diffTrace is a trace as diff holds it: its events, each call without
// its buffers (align.Prepare reads none), and what the report needs.
// diff reads the buffers in a second pass over both traces side by side
// (compareStreamed), and the whole calls it prints in a third
// (readPrinted).
type diffTrace struct {
	path   string
	header trace.Header
	start  []trace.StartEvent
	events []trace.Event
	cut    bool
	seqs   []uint64 // the calls' seqs, in order: where a call is (place)
}

// readDiffHeader reads the header of the trace at path. Errors exit 2.
func readDiffHeader(path string) (trace.Header, error) {
	r, err := tracefile.Open(path)
	if err != nil {
		return trace.Header{}, withCode(diffTrouble, nameFile(path, err))
	}
	defer r.Close()
	return *r.Header(), nil
}

// readDiffTrace reads the trace at path for diff, its calls without
// their buffers; a trace cut short is read to its last complete frame,
// with a warning. Errors exit 2.
func readDiffTrace(ctx context.Context, path string, s streams) (*diffTrace, error) {
	t := &diffTrace{path: path}
	noData := tracefile.ReadOptions{KeepData: func(*trace.Call, *trace.Mem) bool { return false }}
	e, err := openEvents(path, noData)
	if err != nil {
		return nil, withCode(diffTrouble, err)
	}
	defer e.close()
	t.header = *e.r.Header()
	for {
		ev, err := e.next(ctx)
		if err != nil {
			return nil, withCode(diffTrouble, err)
		}
		if ev == nil {
			break
		}
		if c := ev.Call; c != nil {
			c.Mem = nil
			t.seqs = append(t.seqs, c.Seq)
		}
		t.events = append(t.events, *ev)
	}
	e.warnCut(s)
	t.start, t.cut = e.r.Start(), e.cut != nil
	return t, nil
}

// place returns the position of call seq among the trace's calls.
func (t *diffTrace) place(seq uint64) (int, bool) {
	if n := len(t.seqs); n > 0 && seq >= t.seqs[0] {
		if d := seq - t.seqs[0]; d < uint64(n) && t.seqs[d] == seq {
			return int(d), true
		}
	}
	return slices.BinarySearch(t.seqs, seq)
}

// echoOf returns where the echoed ids of t's calls lie (align's EchoOf),
// from a lean dependency graph of t built in one more pass over it (the
// messages of its sockets are read there), or nil when t's calls make
// no graph.
func echoOf(ctx context.Context, t *diffTrace, tab *systable.Table, s streams) (align.EchoOf, error) {
	spawns := depgraph.NewSpawns(tab)
	for i := range t.events {
		spawns.Add(&t.events[i])
	}
	b, err := depgraph.NewBuilder(tab, &t.header, spawns, depgraph.BuildOptions{Lean: true, CountEdges: true})
	if err != nil {
		return nil, nil
	}
	var addErr error
	_, _, err = streamEvents(ctx, t.path, s, false, tracefile.ReadOptions{KeepData: depgraph.DataUsed(tab)}, func(ev *trace.Event) {
		if addErr == nil {
			addErr = b.Add(ev)
		}
	})
	if err != nil || addErr != nil {
		return nil, err // a graph that cannot be built has no echoed ids, as before
	}
	return b.Graph().EchoOnly(), nil // the graph itself can go
}

// stepRef names a Pair step: Steps[i] of res.Threads[ti]; ti -1: none.
type stepRef struct{ ti, i int32 }

// compareStreamed compares the aligned pairs of res, whose calls are
// a's and b's without their buffers: it reads the two traces again side
// by side, an event of each in turn, and compares each pair once both its
// calls are read (with their buffers, those of files' contents left in
// the files and read in by fill only where the pair's addresses differ).
// Memory holds the calls read whose partner the other trace has not
// reached yet. fill is the Comparer's align.Options.Fill: it reads from
// the readers set in *readers.
func compareStreamed(ctx context.Context, tab *systable.Table, a, b *diffTrace, res *align.Result, cmp *align.Comparer, readers *[2]*eventStream) error {
	refs := [2][]stepRef{make([]stepRef, len(a.seqs)), make([]stepRef, len(b.seqs))}
	for side := range refs {
		for k := range refs[side] {
			refs[side][k].ti = -1
		}
	}
	for ti := range res.Threads {
		td := &res.Threads[ti]
		for i, s := range td.Steps {
			if s.Kind != align.Pair {
				continue
			}
			ka, okA := a.place(td.CallsA[s.I].Seq)
			kb, okB := b.place(td.CallsB[s.J].Seq)
			if !okA || !okB {
				return fmt.Errorf("diff: call #%d of %s or #%d of %s not among its calls", td.CallsA[s.I].Seq, a.path, td.CallsB[s.J].Seq, b.path)
			}
			refs[0][ka], refs[1][kb] = stepRef{int32(ti), int32(i)}, stepRef{int32(ti), int32(i)}
		}
	}
	traces := [2]*diffTrace{a, b}
	for side, t := range traces {
		e, err := openEvents(t.path, tracefile.ReadOptions{KeepData: depgraph.DataUsed(tab)})
		if err != nil {
			return err
		}
		defer e.close()
		readers[side] = e
	}
	waiting := [2]map[stepRef]*trace.Call{{}, {}}
	var place [2]int
	// advance reads the next event of one side and compares the pair of
	// its call if the other side has read its partner.
	advance := func(side int) error {
		ev, err := readers[side].next(ctx)
		if err != nil || ev == nil || ev.Call == nil {
			return err
		}
		c, k, t := ev.Call, place[side], traces[side]
		if k >= len(t.seqs) || t.seqs[k] != c.Seq {
			return fmt.Errorf("trace %s: call #%d is not the call read before there: the file changed while diff read it", t.path, c.Seq)
		}
		place[side]++
		ref := refs[side][k]
		if ref.ti < 0 {
			return nil
		}
		other, ok := waiting[1-side][ref]
		if !ok {
			waiting[side][ref] = c
			return nil
		}
		delete(waiting[1-side], ref)
		x, y := c, other
		if side == 1 {
			x, y = other, c
		}
		res.ComparePair(cmp, int(ref.ti), int(ref.i), x, y)
		return nil
	}
	for !readers[0].done || !readers[1].done {
		for side := range readers {
			if err := advance(side); err != nil {
				return err
			}
		}
	}
	if n := len(waiting[0]) + len(waiting[1]); n > 0 || place[0] != len(a.seqs) || place[1] != len(b.seqs) {
		return fmt.Errorf("diff: %d aligned calls not found on reading %s and %s again: the files changed while diff read them", n, a.path, b.path)
	}
	return nil
}

// readPrinted reads again, whole, the calls the text and JSON reports
// print (each one-sided or differing step with context steps around it,
// as render's diff does) and puts them in res in place of the calls
// without buffers.
func readPrinted(ctx context.Context, a, b *diffTrace, res *align.Result, context int, s streams) error {
	want := [2]map[uint64]bool{{}, {}}
	for _, td := range res.Threads {
		show := printedSteps(td, context)
		for i, st := range td.Steps {
			if !show[i] {
				continue
			}
			if st.Kind != align.OnlyB {
				want[0][td.CallsA[st.I].Seq] = true
			}
			if st.Kind != align.OnlyA {
				want[1][td.CallsB[st.J].Seq] = true
			}
		}
	}
	var whole [2]map[uint64]*trace.Call
	for side, t := range [2]*diffTrace{a, b} {
		if len(want[side]) == 0 {
			continue
		}
		whole[side] = make(map[uint64]*trace.Call, len(want[side]))
		keep := func(c *trace.Call, _ *trace.Mem) bool { return want[side][c.Seq] }
		if _, _, err := streamEvents(ctx, t.path, s, false, tracefile.ReadOptions{KeepData: keep}, func(ev *trace.Event) {
			if c := ev.Call; c != nil && want[side][c.Seq] {
				whole[side][c.Seq] = c
			}
		}); err != nil {
			return err
		}
	}
	for _, td := range res.Threads {
		for _, st := range td.Steps {
			if st.Kind != align.OnlyB {
				if c, ok := whole[0][td.CallsA[st.I].Seq]; ok {
					td.CallsA[st.I] = c
				}
			}
			if st.Kind != align.OnlyA {
				if c, ok := whole[1][td.CallsB[st.J].Seq]; ok {
					td.CallsB[st.J] = c
				}
			}
		}
	}
	return nil
}

// printedSteps says which steps of td the reports print: each one-sided
// or differing step with context steps around it.
func printedSteps(td align.ThreadDiff, context int) []bool {
	show := make([]bool, len(td.Steps))
	for i, s := range td.Steps {
		if s.Kind != align.Pair || td.Diffs[i] != nil {
			for k := max(0, i-context); k <= min(len(td.Steps)-1, i+context); k++ {
				show[k] = true
			}
		}
	}
	return show
}
