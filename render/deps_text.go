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
	main  map[uint32]uint32 // process -> its main thread, for [P] and [P:T]
	group *depgraph.Group   // --group, or nil
	size  int
}

// NewDeps returns the writer of g's groups, calls shown as show shows
// them with tab, strings cut after size bytes (0: never). events are the
// trace's, to tell each process's main thread; group, when not nil, is
// the one group WriteGroup, WriteJSON and WriteDot print.
func NewDeps(g *depgraph.Graph, tab *systable.Table, events []trace.Event, group *depgraph.Group, size int) *Deps {
	return &Deps{g: g, tab: tab, main: mainThreads(events), group: group, size: size}
}

// mainThreads returns each process's main thread: the one it was spawned
// with, or that exec'd last.
func mainThreads(evs []trace.Event) map[uint32]uint32 {
	m := map[uint32]uint32{1: 1}
	for _, ev := range evs {
		if p := ev.Proc; p != nil && (p.Kind == trace.Spawn || p.Kind == trace.Exec) {
			m[p.Proc] = p.Thread
		}
	}
	return m
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
	fprintf(w, "# %d calls, %d groups, %d resources, %d edges\n", len(g.Calls()), len(g.Groups()), len(g.Resources()), len(g.Edges()))
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
		fprintf(w, "# resource: %s %s (%s)\n", r.Kind, r.Name, r.Class)
	}
	for _, seq := range gr.Calls {
		c, _ := g.Call(seq)
		fprintf(w, "#%d %s %s\n", seq, v.who(c), CallString(v.tab, c, v.size))
		for _, e := range g.Deps(seq) {
			fprintf(w, "    <- #%d %s", e.To, e.Why)
			if r := g.Resource(e.Resource); r != nil {
				fprintf(w, " via %s", r.Name)
			}
			if to := g.GroupOf(e.To); to != nil && to.ID != gr.ID {
				fprintf(w, " [group %d]", to.ID)
			}
			fmt.Fprintln(w)
		}
	}
	return nil // a write error shows at the flush
}
