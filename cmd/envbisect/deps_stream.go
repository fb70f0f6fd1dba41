package main

import (
	"context"
	"fmt"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// batchGCPercent is the collector's target (debug.SetGCPercent) while
// deps and diff read a trace: the heap grows to 1.5 times what is live
// before a collection instead of twice, for more collections (the
// graph's per-call lists hold no pointers, so they cost the collector
// little).
const batchGCPercent = 50

// streamedDeps is what deps knows of a trace it streamed: its dependency
// graph, built without holding the calls (depgraph.BuildOptions.Lean),
// and each process's main thread.
type streamedDeps struct {
	path   string
	header trace.Header
	tab    *systable.Table
	g      *depgraph.Graph
	main   render.MainThreads
}

// streamDepsGraph reads the trace at path for deps, event by event, in
// two passes: the first pairs threads with the calls that made them
// (depgraph.Spawns), the second builds a lean graph (o: what it keeps
// besides the groups and resources). No pass holds the calls, and the
// bytes of files' contents stay in the file (depgraph.DataUsed); a trace
// cut short is read to its last complete frame, with one warning.
// Errors name the file.
func streamDepsGraph(ctx context.Context, path string, s streams, o depgraph.BuildOptions) (*streamedDeps, error) {
	r, err := tracefile.Open(path)
	if err != nil {
		return nil, nameFile(path, err)
	}
	h := *r.Header()
	r.Close()
	tab, err := systable.New(h.Arch)
	if err != nil {
		return nil, fmt.Errorf("trace %s: %w", path, err)
	}
	t := &streamedDeps{path: path, header: h, tab: tab, main: render.NewMainThreads()}
	spawns := depgraph.NewSpawns(tab)
	noData := func(*trace.Call, *trace.Mem) bool { return false }
	if err := t.stream(ctx, s, true, noData, spawns.Add); err != nil {
		return nil, err
	}
	o.Lean = true
	b, err := depgraph.NewBuilder(tab, &h, spawns, o)
	if err != nil {
		return nil, fmt.Errorf("trace %s: %w", path, err)
	}
	var addErr error
	err = t.stream(ctx, s, false, depgraph.DataUsed(tab), func(ev *trace.Event) {
		t.main.Add(ev)
		if err := b.Add(ev); err != nil && addErr == nil {
			addErr = err
		}
	})
	if err != nil {
		return nil, err
	}
	if addErr != nil {
		return nil, fmt.Errorf("trace %s: %w", path, addErr)
	}
	t.g = b.Graph()
	return t, nil
}

// calls reads the trace again and returns the calls whose seqs want
// holds, whole (their buffers' bytes read in), for what deps prints of
// them.
func (t *streamedDeps) calls(ctx context.Context, s streams, want map[uint64]bool) (map[uint64]*trace.Call, error) {
	out := make(map[uint64]*trace.Call, len(want))
	keep := func(c *trace.Call, _ *trace.Mem) bool { return want[c.Seq] }
	err := t.stream(ctx, s, false, keep, func(ev *trace.Event) {
		if c := ev.Call; c != nil && want[c.Seq] {
			out[c.Seq] = c
		}
	})
	return out, err
}

// stream reads the trace's events in order into add, reading the bytes
// of the out-of-line buffers keep wants. A trace cut short ends its
// events without error, with a warning when warn is set.
func (t *streamedDeps) stream(ctx context.Context, s streams, warn bool, keep func(*trace.Call, *trace.Mem) bool, add func(*trace.Event)) error {
	_, _, err := streamEvents(ctx, t.path, s, warn, tracefile.ReadOptions{KeepData: keep}, add)
	return err
}
