package bisect

import (
	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/render"
)

// Candidates returns, in seq order, the recorded calls whose replay can
// change anything: those that are not plain Execute in the plan with
// every call asked to be replayed (Replay, or ExecuteThenOverwrite). A
// call left out always executes whatever the prefix (the syscall table's
// policy, an internal or input resource, a call that never returned), so
// two prefixes that differ only in such calls ask for the same run, and
// the search never tries both.
func Candidates(g *depgraph.Graph) []uint64 {
	plan := g.Closure(func(uint64) bool { return true })
	var out []uint64
	for i := range g.NumCalls() {
		if seq := g.SeqAt(i); plan.Action(seq) != depgraph.Execute {
			out = append(out, seq)
		}
	}
	return out
}

// notServed lists the opens that the plan with everything replayed runs
// for real because the trace does not keep the file that calls executing
// on their fd need (depgraph's NotServed), and the execs whose image it
// does not keep (ImageNotStored), for the report.
func notServed(g *depgraph.Graph) []render.NotServed {
	plan := g.Closure(func(uint64) bool { return true })
	var out []render.NotServed
	for _, seq := range plan.NotServed() {
		n := render.NotServed{Seq: seq, Why: plan.Note(seq)}
		if c, ok := g.Call(seq); ok {
			n.Path = c.Path
		}
		out = append(out, n)
	}
	return out
}
