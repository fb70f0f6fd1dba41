package replay

import (
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// Recording is a trace prepared for semi-replay runs: its dependency
// graph, and each recorded thread's calls and keys, which live calls are
// matched against. It is read-only once made, so runs may share it.
type Recording struct {
	Trace *tracefile.Trace
	Table *systable.Table
	Graph *depgraph.Graph

	// events are the trace's events: Trace itself, or a Store that
	// reads them from the file (PrepareStore); each passes over them.
	events  eventSource
	calls   int // how many calls the trace holds
	paths   func() []string
	procs   map[uint32]*recProc
	threads map[uint32]*recThread
	root    uint32 // the command's process
	keyer   *align.Keyer
	// placement holds the seqs of the calls whose answer is the CPUs
	// the command may run on (placement.go).
	placement map[uint64]bool
}

// recProc is a recorded process: its place in the tree and its threads.
type recProc struct {
	id, parent uint32
	index      uint32   // 1-based among the parent's children
	main       uint32   // its first thread
	threads    []uint32 // the others, in creation order
	children   []uint32 // in creation order
	exe        string   // the image it ran last (its Exec events)
}

// recThread is a recorded thread and its calls, in order: their
// positions in the graph (Recording.callAt; 4 bytes, a seq is 8) and
// keys. The keys are indexes into a table of the trace's distinct keys,
// 4 bytes a call: cloop's million calls have a handful of keys, and a
// 24-byte Key a call with its string header cost 24 MB.
type recThread struct {
	id, proc uint32
	index    uint32     // 1-based among its process's threads (the main thread is 1)
	calls    []uint32   // positions in the graph
	keys     align.Keys // in the Recording's table of distinct keys
}

// eventSource is where a Recording's events are: a tracefile.Trace in
// memory, or a tracefile.Store that reads them from the file.
type eventSource interface {
	Each(fn func(ev *trace.Event) error) error
}

// call returns recorded call seq, from the graph (which holds the calls
// or reads them from the trace file). The trace was read whole when
// the Recording was made: a call missing now is a panic.
func (r *Recording) call(seq uint64) *trace.Call {
	c, ok := r.Graph.Call(seq)
	if !ok {
		panic(fmt.Sprintf("replay: recorded call %d is not in the trace's graph", seq))
	}
	return c
}

// callAt returns the recorded call at position pos of the graph, as
// call does.
func (r *Recording) callAt(pos uint32) *trace.Call { return r.call(r.Graph.SeqAt(int(pos))) }

// EachEvent passes over the recorded events in order, from memory or
// from the trace file (PrepareStore), until fn returns an error, which
// it returns.
func (r *Recording) EachEvent(fn func(ev *trace.Event) error) error { return r.events.Each(fn) }

// each passes over the recorded events in order. An error reading a
// Store's file again, which was read whole before, is a panic naming it.
func (r *Recording) each(fn func(ev *trace.Event)) {
	err := r.events.Each(func(ev *trace.Event) error {
		fn(ev)
		return nil
	})
	if err != nil {
		panic(fmt.Errorf("replay: %w", err))
	}
}

// CheckArch says whether traces with header h can be replayed here: a
// trace replays on the architecture it was recorded on only.
func CheckArch(h *trace.Header) error {
	if h.Arch != runtime.GOARCH {
		return fmt.Errorf("the trace was recorded on %s; this envbisect replays %s traces only", h.Arch, runtime.GOARCH)
	}
	return nil
}

// Prepare makes a Recording of t, whose dependency graph g the caller
// built (depgraph.Build with the table of t's architecture): the graph
// is a stage of its own, built once and shared by replay and the search.
func Prepare(t *tracefile.Trace, g *depgraph.Graph) (*Recording, error) {
	return prepareFrom(t, t, g)
}

// PrepareStore is Prepare for a trace whose events stay in its file
// (s), and a graph g built from s (depgraph.BuildPasses with
// BuildOptions.Source s): the Recording holds each call's seq and key,
// not the call, and reads the calls a run matches from s.
func PrepareStore(s *tracefile.Store, g *depgraph.Graph) (*Recording, error) {
	return prepareFrom(s.Trace, s, g)
}

func prepareFrom(t *tracefile.Trace, events eventSource, g *depgraph.Graph) (*Recording, error) {
	if err := CheckArch(&t.Header); err != nil {
		return nil, err
	}
	if g == nil || g.Table() == nil || g.Table().Arch != t.Header.Arch {
		return nil, fmt.Errorf("prepare trace: no dependency graph of this trace's architecture (%s)", t.Header.Arch)
	}
	tab := g.Table()
	r := &Recording{Trace: t, Table: tab, Graph: g, events: events, procs: make(map[uint32]*recProc),
		threads: make(map[uint32]*recThread), keyer: align.NewKeyer(tab, "", ""), placement: map[uint64]bool{}}
	keys := align.NewKeyTable()
	// Each thread's lists are made at their size: grown call by call,
	// a thread of a million calls held both arrays at each growth and a
	// fifth more than its calls at the end.
	// A Store counted them when it read the file.
	var perThread map[uint32]int
	if tc, ok := events.(interface{ ThreadCalls() map[uint32]int }); ok {
		perThread = tc.ThreadCalls()
	} else {
		perThread = make(map[uint32]int)
		events.Each(func(ev *trace.Event) error {
			if ev.Call != nil {
				perThread[ev.Call.Thread]++
			}
			return nil
		})
	}
	// The paths the calls name, for the mounts compared at the start of
	// each run (callPaths), are found on the same pass.
	var paths []string
	seen := map[string]bool{}
	nevents := 0
	err := events.Each(func(ev *trace.Event) error {
		nevents++
		if c := ev.Call; c != nil {
			for _, p := range [2]string{c.Path, c.Path2} {
				if p != "" && !seen[p] {
					seen[p] = true
					paths = append(paths, p)
				}
			}
		}
		switch {
		case ev.Proc != nil:
			r.procEvent(ev.Proc)
		case ev.Call != nil:
			c := ev.Call
			r.calls++
			th := r.thread(c.Proc, c.Thread)
			if th.calls == nil {
				n := perThread[c.Thread]
				th.calls, th.keys = make([]uint32, 0, n), keys.NewKeys(n)
			}
			pos, ok := g.Pos(c.Seq)
			if !ok {
				return fmt.Errorf("prepare trace: call %d is not in the trace's graph", c.Seq)
			}
			th.calls = append(th.calls, uint32(pos))
			th.keys.Add(recordedKey(r.keyer, g, tab, c))
			if row := tab.ByNr(int(c.Nr)); row != nil && row.Placement {
				r.placement[c.Seq] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	keys.Done()
	if r.root == 0 {
		return nil, noProcess(t, nevents)
	}
	r.paths = func() []string { return paths }
	return r, nil
}

// noProcess says why a trace without a spawn event of its first process
// has none: cut short before the command started, or, when its end frame
// is there, a trace that does not hold what a recorder writes.
func noProcess(t *tracefile.Trace, events int) error {
	if t.End == nil {
		return fmt.Errorf("the trace has no process: it was cut short before the command started")
	}
	return fmt.Errorf("the trace is complete (%d events and its end) but inconsistent: no spawn event introduces its first process, "+
		"which a recorder writes before any call of it", events)
}

func (r *Recording) procEvent(e *trace.ProcEvent) {
	switch e.Kind {
	case trace.Spawn:
		p := &recProc{id: e.Proc, parent: e.Parent, index: e.Index, main: e.Thread}
		r.procs[e.Proc] = p
		r.threads[e.Thread] = &recThread{id: e.Thread, proc: e.Proc, index: 1}
		if parent := r.procs[e.Parent]; parent != nil && e.Parent != 0 {
			parent.children = append(parent.children, e.Proc)
		} else if r.root == 0 {
			r.root = e.Proc
		}
	case trace.SpawnThread:
		p := r.procs[e.Proc]
		if p == nil {
			return
		}
		p.threads = append(p.threads, e.Thread)
		r.threads[e.Thread] = &recThread{id: e.Thread, proc: e.Proc, index: e.Index}
	case trace.Exec:
		if p := r.procs[e.Proc]; p != nil {
			p.exe = e.Exe
		}
	}
}

// exe names the image recorded process id ran last, "" when unknown.
func (r *Recording) exe(id uint32) string {
	if p := r.procs[id]; p != nil {
		return p.exe
	}
	return ""
}

// thread returns recorded thread id, making it if no event announced it.
func (r *Recording) thread(proc, id uint32) *recThread {
	th := r.threads[id]
	if th == nil {
		th = &recThread{id: id, proc: proc}
		r.threads[id] = th
	}
	return th
}

// Close releases the trace file of a Recording made by PrepareStore;
// for one of a Trace in memory it does nothing. The Recording may not
// run after.
func (r *Recording) Close() error {
	if c, ok := r.events.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Calls returns the number of recorded calls.
func (r *Recording) Calls() int { return r.Graph.NumCalls() }

// PrepareStart returns a Recording of t without its dependency graph:
// enough to compare start items (StartItemsIn, WithCwd), to name what the
// container's filters deny (DeniedHere) and to print calls, but not to
// make a call-level run (Run needs Prepare's). A materialized search,
// which replays no call, starts from it, and builds the graph only when
// it falls back to call-level replay: the graph of a long trace costs
// seconds and hundreds of MiB.
func PrepareStart(t *tracefile.Trace) (*Recording, error) {
	if err := CheckArch(&t.Header); err != nil {
		return nil, err
	}
	tab, err := systable.New(t.Header.Arch)
	if err != nil {
		return nil, err
	}
	r := &Recording{Trace: t, Table: tab, events: t}
	r.paths = sync.OnceValue(r.passPaths)
	return r, nil
}
