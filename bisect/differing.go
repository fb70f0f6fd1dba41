package bisect

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/render"
)

// The search over what differs here. The run with nothing replayed (the
// fail end) observes this environment: every recorded call it made ran
// live, and its answers compared with the recorded ones (observer) say
// which resources differ. The candidates are the start items and those
// resources, in the order of their first call; each run replays the
// start items and a prefix of the resources, every call of each, so no
// run shows the program the recorded answer about one object and then
// the live one. A resource whose answers are the same in both
// environments is never a candidate.
//
// The ends of that space are nothing replayed (failed already) and every
// candidate replayed. When the latter fails: with start items among the
// candidates, the start items alone are tried (a run that replays
// resources too can fail for its own sake); then the run's own
// observations are added, since a run that got further than the fail end
// reaches resources the fail end never did (maxExpansions times, while
// they bring new differing resources); then, once, the resources that
// run never reached at all, which no run has observed (a program that
// stops at the first of several files missing here reaches the next
// one only when the first is replayed). A resource observed the same in
// both environments is never added. Only when no such set passes does
// the search fall back to every replayable call (everyCall), by prefix,
// the thesis' search.

// maxExpansions is how many times the pass end of the differing space
// is widened by what its failing run observed differing; once more, at
// the end, by what it never reached.
const maxExpansions = 3

// endFunc decides one end of the search (endpoint, or a solo round of a
// parallel search).
type endFunc func(ctx context.Context, i int) (decided, error)

// differingEnds sets up the search over what differs here from the fail
// end's run and decides its pass end with end. ok: the search goes on
// between index 0 and hi of that space. Otherwise s.sp is every call,
// with the reason it fell back.
func (s *search) differingEnds(ctx context.Context, fail decided, end endFunc) (hi int, ok bool, err error) {
	s.failLive = fail.out.Live
	groups, first := s.obs.differing(fail.out.Live, nil)
	sp := &space{over: render.SpaceDiffering, start: s.start, groups: groups, differs: first}
	if sp.size() == 0 {
		s.sp = s.everyCall("the run with nothing replayed showed no start item or resource that differs here")
		return 0, false, nil
	}
	s.sp = sp
	s.est = max(s.est, s.step+1+log2ceil(sp.size()))
	startTried, unobservedAdded := false, false
	for expansion := 0; ; expansion++ {
		pass, err := end(ctx, sp.size())
		if err != nil {
			return 0, false, err
		}
		if pass.v == Pass {
			return sp.size(), true, nil
		}
		if pass.v == Fail && !startTried && sp.start > 0 && len(sp.groups) > 0 {
			startTried = true
			d, err := end(ctx, sp.start)
			if err != nil {
				return 0, false, err
			}
			if d.v == Pass {
				return sp.start, true, nil
			}
		}
		if pass.v != Fail || unobservedAdded {
			break
		}
		known := map[depgraph.GroupID]bool{}
		for _, gr := range sp.groups {
			known[gr.ID] = true
		}
		more, f := s.obs.differing(pass.out.Live, known)
		for id, seq := range f {
			sp.differs[id] = seq
		}
		if len(more) == 0 || expansion+1 >= maxExpansions {
			// Nothing new seen to differ, or widened enough one at a
			// time: add what no run has observed yet, the resources that
			// run never reached.
			for _, gr := range more {
				known[gr.ID] = true
			}
			more, unobservedAdded = append(more, s.obs.unobserved(pass.out.Live, known)...), true
		}
		if len(more) == 0 {
			break
		}
		sp.groups = append(sp.groups, more...)
		sort.Slice(sp.groups, func(i, j int) bool { return sp.groups[i].Calls[0] < sp.groups[j].Calls[0] })
	}
	why := fmt.Sprintf("replaying the %d resources that differ here", len(sp.groups))
	if len(sp.groups) == 1 {
		why = "replaying the resource that differs here"
	}
	switch {
	case sp.start == 1:
		why += " and the start item"
	case sp.start > 1:
		why += fmt.Sprintf(" and the %d start items", sp.start)
	}
	s.sp = s.everyCall(why + " does not make the command pass")
	s.sp.tried = sp.groups
	s.sp.differs = sp.differs
	return 0, false, nil
}

// everyCall is the space of every replayable call, by prefix, after the
// start items; why says why the search runs over it.
func (s *search) everyCall(why string) *space {
	return &space{over: render.SpaceAll, start: s.start, calls: s.cands, fallback: why}
}

// key identifies what a request replays (not its slot).
func (r Request) key() string {
	groups := slices.Clone(r.Groups)
	slices.Sort(groups)
	except := slices.Clone(r.Except)
	slices.Sort(except)
	startExcept := slices.Clone(r.StartExcept)
	slices.Sort(startExcept)
	return fmt.Sprint(r.Start, "/", r.Prefix, "/", groups, "/", startExcept, "/", except)
}
