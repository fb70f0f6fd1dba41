package bisect

import (
	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/render"
)

// space is what a search runs over: prefix index i (0..size()) asks for
// the first i units to be replayed, the start items first. Over the
// resources that differ here (render.SpaceDiffering) a unit after the
// start items is a dependency group, replayed whole; over everything
// (render.SpaceAll) it is one candidate call, and a prefix of calls is
// the thesis' unit.
type space struct {
	over   string
	start  int               // len(Options.Start): units 1..start are the start items
	groups []*depgraph.Group // SpaceDiffering: the differing resources, by first call
	calls  []uint64          // SpaceAll: Candidates(g)
	// differs is, per differing resource, the first call whose live
	// result differed when it was observed (0: not observed).
	differs map[depgraph.GroupID]uint64
	// fallback says why a search over differing resources gave way to
	// one over every call; tried are the resources it had tried.
	fallback string
	tried    []*depgraph.Group
}

// size is how many units there are.
func (sp *space) size() int { return sp.start + len(sp.groups) + len(sp.calls) }

// request is the run of prefix index i.
func (sp *space) request(i int) Request {
	r := Request{Start: min(max(i, 0), sp.start)}
	j := i - sp.start
	if sp.over == render.SpaceDiffering {
		for _, gr := range sp.groups[:min(max(j, 0), len(sp.groups))] {
			r.Groups = append(r.Groups, gr.ID)
		}
		return r
	}
	switch {
	case j <= 0:
		r.Prefix = 0
	case j >= len(sp.calls):
		r.Prefix = All
	default:
		r.Prefix = sp.calls[j-1]
	}
	if i >= sp.size() {
		r.Prefix = All
	}
	return r
}

// report is the space as the report shows it.
func (sp *space) report() *render.SearchSpace {
	out := &render.SearchSpace{Over: sp.over, Candidates: sp.size(), Fallback: sp.fallback}
	for _, gr := range append(sp.tried, sp.groups...) {
		out.Resources = append(out.Resources, render.SpaceResource{Group: gr.ID, Title: gr.Title(),
			First: gr.Calls[0], Differs: sp.differs[gr.ID], Calls: len(gr.Calls)})
	}
	return out
}
