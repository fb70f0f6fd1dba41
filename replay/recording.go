package replay

import (
	"fmt"
	"runtime"

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

// recThread is a recorded thread and its calls, in order.
type recThread struct {
	id, proc uint32
	index    uint32 // 1-based among its process's threads (the main thread is 1)
	calls    []*trace.Call
	keys     []align.Key
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
	if err := CheckArch(&t.Header); err != nil {
		return nil, err
	}
	if g == nil || g.Table() == nil || g.Table().Arch != t.Header.Arch {
		return nil, fmt.Errorf("prepare trace: no dependency graph of this trace's architecture (%s)", t.Header.Arch)
	}
	tab := g.Table()
	r := &Recording{Trace: t, Table: tab, Graph: g, procs: make(map[uint32]*recProc),
		threads: make(map[uint32]*recThread), keyer: align.NewKeyer(tab, "", "")}
	shared := newKeyStrings()
	// Each thread's lists are made at their size: grown call by call,
	// a thread of a million calls held both arrays at each growth and a
	// fifth more than its calls at the end.
	perThread := make(map[uint32]int)
	for _, ev := range t.Events {
		if ev.Call != nil {
			perThread[ev.Call.Thread]++
		}
	}
	for _, ev := range t.Events {
		switch {
		case ev.Proc != nil:
			r.procEvent(ev.Proc)
		case ev.Call != nil:
			th := r.thread(ev.Call.Proc, ev.Call.Thread)
			if th.calls == nil {
				n := perThread[ev.Call.Thread]
				th.calls, th.keys = make([]*trace.Call, 0, n), make([]align.Key, 0, n)
			}
			th.calls = append(th.calls, ev.Call)
			th.keys = append(th.keys, shared.share(recordedKey(r.keyer, g, tab, ev.Call)))
		}
	}
	if r.root == 0 {
		return nil, noProcess(t)
	}
	r.placement = placementCalls(tab, t.Events)
	return r, nil
}

// noProcess says why a trace without a spawn event of its first process
// has none: cut short before the command started, or, when its end frame
// is there, a trace that does not hold what a recorder writes.
func noProcess(t *tracefile.Trace) error {
	if t.End == nil {
		return fmt.Errorf("the trace has no process: it was cut short before the command started")
	}
	return fmt.Errorf("the trace is complete (%d events and its end) but inconsistent: no spawn event introduces its first process, "+
		"which a recorder writes before any call of it", len(t.Events))
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

// Calls returns the number of recorded calls.
func (r *Recording) Calls() int { return len(r.Graph.Calls()) }

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
	return &Recording{Trace: t, Table: tab}, nil
}
