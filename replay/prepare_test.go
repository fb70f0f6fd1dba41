package replay

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// prepare builds tr's dependency graph, as the CLI does, and prepares tr
// with it.
func prepare(tr *tracefile.Trace) (*Recording, error) {
	if err := CheckArch(&tr.Header); err != nil {
		return nil, err
	}
	tab, err := systable.New(tr.Header.Arch)
	if err != nil {
		return nil, err
	}
	g, err := depgraph.Build(tab, &tr.Header, tr.Events)
	if err != nil {
		return nil, err
	}
	return Prepare(tr, g)
}

// prepareStore opens the trace at path as a Store, builds its graph by
// passes over it, as replay's CLI does (without its files, as prepare),
// and prepares it with it.
func prepareStore(path string) (*Recording, error) {
	st, err := tracefile.OpenStore(path)
	if err != nil {
		return nil, err
	}
	tab, err := systable.New(st.Trace.Header.Arch)
	if err != nil {
		st.Close()
		return nil, err
	}
	// Without the trace's files, as prepare: these tests' runs serve
	// none (servedRecording builds a graph with them).
	g, err := depgraph.BuildPasses(tab, &st.Trace.Header, st.Each, depgraph.BuildOptions{Source: st})
	if err != nil {
		st.Close()
		return nil, err
	}
	rec, err := PrepareStore(st, g)
	if err != nil {
		st.Close()
		return nil, err
	}
	return rec, nil
}

// A Recording prepared from a Store holds what one prepared from the
// trace read whole holds (processes, threads with their calls' seqs and
// keys, placement calls) and answers the same calls.
func TestPrepareStoreAsPrepare(t *testing.T) {
	whole := workers(t)
	path := filepath.Join(t.TempDir(), "w.envb")
	w, err := tracefile.Create(path, &whole.Trace.Header)
	if err != nil {
		t.Fatal(err)
	}
	evs := whole.Trace.Events
	for len(evs) > 0 { // several frames
		n := min(len(evs), 4)
		if err := w.WriteEvents(evs[:n]); err != nil {
			t.Fatal(err)
		}
		evs = evs[n:]
	}
	if err := w.Close(&trace.End{}); err != nil {
		t.Fatal(err)
	}
	st, err := prepareStore(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.Calls() != whole.Calls() || st.root != whole.root || !reflect.DeepEqual(st.procs, whole.procs) ||
		!reflect.DeepEqual(st.threads, whole.threads) || !reflect.DeepEqual(st.placement, whole.placement) {
		t.Fatalf("prepared from a store: %d calls, root %d, procs %v, threads %v; want %d, %d, %v, %v",
			st.Calls(), st.root, st.procs, st.threads, whole.Calls(), whole.root, whole.procs, whole.threads)
	}
	for _, ev := range whole.Trace.Events {
		if c := ev.Call; c != nil && !reflect.DeepEqual(st.call(c.Seq), c) {
			t.Fatalf("call %d: %+v, want %+v", c.Seq, st.call(c.Seq), c)
		}
	}
	if !reflect.DeepEqual(st.callPaths(), whole.callPaths()) {
		t.Fatalf("paths %v, want %v", st.callPaths(), whole.callPaths())
	}
}
