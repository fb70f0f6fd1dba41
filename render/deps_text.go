package render

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Deps writes what deps prints of a dependency graph: the table of
// groups, one group with its calls and their dependencies, JSON, or the
// call graph as Graphviz dot.
type Deps struct {
	g     *depgraph.Graph
	tab   *systable.Table
	main  MainThreads     // for [P] and [P:T]
	group *depgraph.Group // --group, or nil
	size  int
	calls func(seq uint64) (*trace.Call, bool)
}

// DepsOptions say what a Deps prints and where it finds the calls.
type DepsOptions struct {
	// Group, when not nil, is the one group WriteGroup, WriteJSON and
	// WriteDot print.
	Group *depgraph.Group
	// Size cuts strings after Size bytes (0: never).
	Size int
	// Main are the trace's processes' main threads.
	Main MainThreads
	// Calls returns the recorded call seq, for what prints calls: the
	// calls of Group (WriteGroup, WriteJSON) and the calls WriteDot
	// labels (of which it reads Nr and Path; a call it does not have is
	// labelled from the graph, when that keeps paths:
	// depgraph.BuildOptions.Paths). nil: the graph's (Graph.Call), which
	// a lean graph does not have.
	Calls func(seq uint64) (*trace.Call, bool)
}

// NewDeps returns the writer of g's groups, calls shown as show shows
// them with tab.
func NewDeps(g *depgraph.Graph, tab *systable.Table, o DepsOptions) *Deps {
	v := &Deps{g: g, tab: tab, main: o.Main, group: o.Group, size: o.Size, calls: o.Calls}
	if v.main == nil {
		v.main = NewMainThreads()
	}
	if v.calls == nil {
		v.calls = g.Call
	}
	return v
}

// MainThreads are each process's main thread: the one it was spawned
// with, or that exec'd last (show prints a call of another thread
// [P:T]).
type MainThreads map[uint32]uint32

// NewMainThreads returns the main threads of a trace before its first
// event.
func NewMainThreads() MainThreads { return MainThreads{1: 1} }

// MainThreadsOf returns the main threads of a trace's events.
func MainThreadsOf(evs []trace.Event) MainThreads {
	m := NewMainThreads()
	for i := range evs {
		m.Add(&evs[i])
	}
	return m
}

// Add reads the next event of the trace.
func (m MainThreads) Add(ev *trace.Event) {
	if p := ev.Proc; p != nil && (p.Kind == trace.Spawn || p.Kind == trace.Exec) {
		m[p.Proc] = p.Thread
	}
}

// who prints who made a call as show does: [P], or [P:T] off the main
// thread.
func (v *Deps) who(c *trace.Call) string {
	if m, ok := v.main[c.Proc]; !ok || m == c.Thread {
		return "[" + strconv.FormatUint(uint64(c.Proc), 10) + "]"
	}
	return fmt.Sprintf("[%d:%d]", c.Proc, c.Thread)
}

// WriteGroups prints the table of groups.
func (v *Deps) WriteGroups(w io.Writer) error {
	g := v.g
	fprintf(w, "# %d calls, %d groups, %d resources, %d edges\n", g.NumCalls(), len(g.Groups()), len(g.Resources()), g.EdgeCount())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fprintf(tw, "ID\tKIND\tCLASS\tCALLS\tFIRST\tLAST\tNAME\n")
	for _, gr := range g.Groups() {
		fprintf(tw, "%d\t%s\t%s\t%d\t%d\t%d\t%s\n", gr.ID, gr.Kind, gr.Class, len(gr.Calls), gr.Calls[0], gr.Calls[len(gr.Calls)-1], gr.Name)
	}
	return tw.Flush()
}

// WriteGroup prints one group with its calls and their dependencies.
func (v *Deps) WriteGroup(w io.Writer) error {
	g, gr := v.g, v.group
	fprintf(w, "# group %d: %s (%s), %d calls, #%d to #%d\n", gr.ID, gr.Title(), gr.Class, len(gr.Calls), gr.Calls[0], gr.Calls[len(gr.Calls)-1])
	for _, id := range gr.Resources {
		r := g.Resource(id)
		fprintf(w, "# resource: %s %s (%s)\n", r.Kind, r.Name(), r.Class)
	}
	for _, seq := range gr.Calls {
		c, ok := v.calls(seq)
		if !ok {
			return fmt.Errorf("call #%d of group %d is not in the trace", seq, gr.ID)
		}
		fprintf(w, "#%d %s %s\n", seq, v.who(c), CallString(v.tab, c, v.size))
		for _, e := range g.Deps(seq) {
			fprintf(w, "    <- #%d %s", e.To, e.Why)
			if r := g.Resource(e.Resource); r != nil {
				fprintf(w, " via %s", r.Name())
			}
			if to := g.GroupOf(e.To); to != nil && to.ID != gr.ID {
				fprintf(w, " [group %d]", to.ID)
			}
			fmt.Fprintln(w)
		}
	}
	return nil // a write error shows at the flush
}
