package bisect

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/render"
)

// Confirmation and every cause. A bisection ends at unit k: units 0..k
// replayed pass, 0..k-1 fail. Unit k is a suspect, not yet a cause.
// Before it is named:
//
//   - replaying the suspect alone (the set of causes found so far) on top
//     of the fail end must pass; when it fails, the suspect is one cause
//     of several: it stays replayed and the other units of 0..k are
//     bisected again, from that set (failing) to all of 0..k (passing),
//     for the next cause; and so on until the set passes (at most
//     maxCauses causes);
//   - a set of several causes is made 1-minimal: a cause whose removal
//     still passes is dropped;
//   - replaying every unit of 0..k but one cause must fail, for every
//     cause. Units after k are left out of these runs: they may be
//     consequences of a cause (the modes of files created under another
//     umask), whose replay would stand in for it.
//
// A request the search already decided is not run again (search.memo):
// a suspect that is the first unit costs no run at all. A check that
// disagrees (or is skipped twice) ends the search as Unconfirmed, with
// the steps that disagreed. Over every call (the fallback) a unit is one
// call: its resource (dependency group) alone must pass and every call
// up to it but that resource's must fail; no further cause is searched
// for there.

// maxCauses bounds the causes searched for: each costs about log2 of the
// units left.
const maxCauses = 8

// decideSet decides the run of req as a step of its own with role, or
// returns the decision the search already took for the same request.
func (s *search) decideSet(ctx context.Context, req Request, units int, role string) (decided, error) {
	s.mu.Lock()
	d, ok := s.memo[req.key()]
	s.mu.Unlock()
	if ok {
		return d, nil
	}
	s.est++
	if s.o.jobs() > 1 {
		s.mu.Lock()
		s.round++ // a round of its own
		s.mu.Unlock()
	}
	d, err := s.decideRequest(ctx, units, req, 0, s.newStep(), role)
	if err == nil && d.v == Skip {
		d, err = s.decideRequest(ctx, units, req, 0, s.newStep(), role)
	}
	return d, err
}

// decideSets decides the runs of reqs (units: how many units each asks
// for, the steps' Index) with role, as decideSet does; in a parallel
// search (Options.Jobs > 1) the runs not decided yet go in one round.
func (s *search) decideSets(ctx context.Context, reqs []Request, units []int, role string) ([]decided, error) {
	out := make([]decided, len(reqs))
	if s.o.jobs() <= 1 {
		for i, r := range reqs {
			d, err := s.decideSet(ctx, r, units[i], role)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	}
	var todo []int
	s.mu.Lock()
	for i, r := range reqs {
		if d, ok := s.memo[r.key()]; ok {
			out[i] = d
		} else {
			todo = append(todo, i)
		}
	}
	s.round++
	s.est++
	s.mu.Unlock()
	errs := make([]error, len(reqs))
	var wg sync.WaitGroup
	for j, i := range todo {
		step := s.newStep()
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = s.decideRequest(ctx, units[i], reqs[i], j%s.o.jobs(), step, role)
		}()
	}
	wg.Wait()
	for _, i := range todo {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if out[i].v == Skip { // as decideSet: a skipped run once more
			s.mu.Lock()
			s.round++
			s.mu.Unlock()
			d, err := s.decideRequest(ctx, units[i], reqs[i], 0, s.newStep(), role)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
	}
	return out, nil
}

// setRequest is the run that replays exactly the units set of the space
// of what differs here (indexes, start items first), and nothing else.
func (s *search) setRequest(set []int) Request {
	var r Request
	in := map[int]bool{}
	for _, u := range slices.Sorted(slices.Values(set)) {
		if u < s.start {
			in[u] = true
			r.Start = u + 1
			continue
		}
		r.Groups = append(r.Groups, s.sp.groups[u-s.start].ID)
	}
	for j := range r.Start {
		if !in[j] {
			r.StartExcept = append(r.StartExcept, j)
		}
	}
	return r
}

// confirm confirms found, the report of a search that ended at unit k of
// the space (units 0..k replayed passed, 0..k-1 failed), with atLo the
// outcome of the failing run next to k. It returns found with every
// cause, or an Unconfirmed report.
func (s *search) confirm(ctx context.Context, found *Report, k int, atLo Outcome) (*Report, error) {
	if found.Status != Located {
		return found, nil
	}
	if s.sp.over != render.SpaceDiffering {
		return s.confirmCall(ctx, found, k)
	}
	causes, lows := []int{k}, []Outcome{atLo}
	// Every unit up to k: the passing set the search found. Units after
	// it are not searched: they may be consequences of a cause (the modes
	// of files created under another umask), and replaying them could
	// stand in for it.
	upTo := make([]int, k+1)
	for i := range upTo {
		upTo[i] = i
	}
	for {
		a, err := s.decideSet(ctx, s.setRequest(causes), len(causes), render.RoleConfirm)
		if err != nil {
			return nil, err
		}
		if a.v == Pass {
			break
		}
		if a.v == Skip {
			return s.unconfirmed(found, "the run that replays "+s.unitsText(causes)+" alone was skipped twice: it cannot be confirmed", a), nil
		}
		if len(causes) >= maxCauses {
			return s.atCauseLimit(found, causes, lows, a), nil
		}
		u, at, r, err := s.nextCause(ctx, found, causes, upTo, a)
		if err != nil || r != nil {
			return r, err
		}
		causes, lows = append(causes, u), append(lows, at)
	}
	for i := 0; len(causes) > 1 && i < len(causes); {
		without := slices.Delete(slices.Clone(causes), i, i+1)
		d, err := s.decideSet(ctx, s.setRequest(without), len(without), render.RoleCause)
		if err != nil {
			return nil, err
		}
		if d.v == Pass { // not needed once the others are replayed
			causes, lows = without, slices.Delete(lows, i, i+1)
			continue
		}
		i++
	}
	for _, c := range causes {
		but := slices.DeleteFunc(slices.Clone(upTo), func(u int) bool { return u == c })
		d, err := s.decideSet(ctx, s.setRequest(but), len(but), render.RoleConfirm)
		if err != nil {
			return nil, err
		}
		if d.v != Fail {
			return s.unconfirmed(found, fmt.Sprintf("replaying everything up to it but %s does not fail (%s): it is not needed",
				s.unitsText([]int{c}), d.v), d), nil
		}
	}
	return s.withCauses(found, causes, lows), nil
}

// nextCause bisects the units of upTo not in causes, from causes alone
// (a, failing) to every unit of upTo (the pass end), for the next cause.
// It returns the unit and the outcome of the failing run next to it, or
// the report to end with.
func (s *search) nextCause(ctx context.Context, found *Report, causes, upTo []int, a decided) (int, Outcome, *Report, error) {
	var rest []int
	for _, u := range upTo {
		if !slices.Contains(causes, u) {
			rest = append(rest, u)
		}
	}
	set := func(j int) []int { return append(slices.Clone(causes), rest[:j]...) }
	end, err := s.decideSet(ctx, s.setRequest(set(len(rest))), len(causes)+len(rest), render.RoleCause)
	if err != nil {
		return 0, Outcome{}, nil, err
	}
	if len(rest) == 0 || end.v != Pass {
		return 0, Outcome{}, s.unconfirmed(found, "replaying "+s.unitsText(causes)+" alone fails, and the run that "+
			"replays every candidate with them does not pass", a, end), nil
	}
	lo, hi, atLo := 0, len(rest), a.out
	skipped := map[int]bool{}
	for hi-lo > 1 {
		mid, ok := pick(lo, hi, skipped)
		if !ok {
			return 0, Outcome{}, s.unconfirmed(found, "replaying "+s.unitsText(causes)+" alone fails, and the runs that "+
				"would tell which other candidate is needed were all skipped", a), nil
		}
		d, err := s.decideSet(ctx, s.setRequest(set(mid)), len(causes)+mid, render.RoleCause)
		if err != nil {
			return 0, Outcome{}, nil, err
		}
		switch d.v {
		case Pass:
			hi = mid
		case Fail:
			lo, atLo = mid, d.out
		default:
			skipped[mid] = true
		}
	}
	return rest[hi-1], atLo, nil, nil
}

// confirmCall confirms the call at unit k of the space of every call: its
// resource alone must pass, every call but its resource's must fail. A
// start item, or a call in no group, is left as the search found it.
func (s *search) confirmCall(ctx context.Context, found *Report, k int) (*Report, error) {
	if k < s.start {
		return found, nil
	}
	gr := s.g.GroupOf(s.sp.calls[k-s.start])
	if gr == nil {
		return found, nil
	}
	flip := s.sp.calls[k-s.start] // the culprit named is the first call of its resource that differs
	alone := Request{Start: s.start, Groups: []depgraph.GroupID{gr.ID}}
	but := Request{Start: s.start, Prefix: flip, Except: []depgraph.GroupID{gr.ID}}
	ds, err := s.decideSets(ctx, []Request{alone, but}, []int{1, k + 1}, render.RoleConfirm)
	if err != nil {
		return nil, err
	}
	if d := ds[0]; d.v != Pass {
		return s.unconfirmed(found, fmt.Sprintf("the search ended at call %d, but replaying %s alone does not make the "+
			"command pass (%s)", flip, gr.Title(), d.v), d), nil
	}
	if d := ds[1]; d.v != Fail {
		return s.unconfirmed(found, fmt.Sprintf("the search ended at call %d, but replaying every call up to it except those of %s "+
			"does not fail (%s): it is not needed", flip, gr.Title(), d.v), d), nil
	}
	found.Causes = []*Culprit{found.Culprit}
	return found, nil
}

// withCauses is found naming every cause (units of the space of what
// differs, lows the failing runs next to each).
func (s *search) withCauses(found *Report, causes []int, lows []Outcome) *Report {
	var named []*Report
	for i, u := range causes {
		r := s.located(u, lows[i])
		if r.Status != Located {
			// Its answers here are the same as recorded.
			r.Status, r.Suspect, r.Culprit, r.Group = Unconfirmed, found.Culprit, nil, nil
			return r
		}
		named = append(named, r)
	}
	// In the order the program met them: start items first (met at its
	// start), then by the call named, whatever order the search found
	// them in.
	sort.SliceStable(named, func(i, j int) bool { return metOrder(named[i].Culprit) < metOrder(named[j].Culprit) })
	out := named[0]
	for _, r := range named {
		out.Causes = append(out.Causes, r.Culprit)
	}
	if len(named) > 1 {
		out.Message = fmt.Sprintf("%d causes, each needed: replaying %s makes the command pass here, and leaving out "+
			"any one of them fails; the first: %s", len(named), s.unitsText(causes), out.Message)
	}
	return out
}

// metOrder orders causes by when the program met them: a start item
// first, then by the seq of the call named.
func metOrder(c *Culprit) uint64 {
	if c == nil || c.Start != nil {
		return 0
	}
	return c.Seq
}

// atCauseLimit is the report of a search that found maxCauses causes
// and, with all of them replayed (a, failing), still fails: more remain,
// and the set cannot be confirmed. It lists the causes found so far
// (lows: the failing run next to each) and says so, so that the report
// does not take it for flakiness.
func (s *search) atCauseLimit(found *Report, causes []int, lows []Outcome, a decided) *Report {
	r := s.unconfirmed(found, fmt.Sprintf("the search stopped at its limit of %d causes: with the %d found so far replayed "+
		"together the command still fails here, so more remain", maxCauses, len(causes)), a)
	r.CauseLimit = &render.CauseLimit{Limit: maxCauses, Found: []*Culprit{}}
	for i, u := range causes {
		c := s.located(u, lows[i])
		switch {
		case c.Culprit != nil:
			r.CauseLimit.Found = append(r.CauseLimit.Found, c.Culprit)
		case c.Suspect != nil:
			r.CauseLimit.Found = append(r.CauseLimit.Found, c.Suspect)
		}
	}
	return r
}

// unconfirmed is the report of a suspect that the confirmation runs
// disagreed with.
func (s *search) unconfirmed(found *Report, why string, disagree ...decided) *Report {
	r := s.report(Unconfirmed, "unconfirmed: "+why+"; no cause is named")
	r.Suspect = found.Culprit
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range disagree {
		if d.at < len(s.steps) && !slices.Contains(r.Disagreeing, s.steps[d.at].Step) {
			r.Disagreeing = append(r.Disagreeing, s.steps[d.at].Step)
		}
	}
	return r
}

// unitsText names units of the space: "the start item env LANG and
// file /etc/app.conf".
func (s *search) unitsText(units []int) string {
	var names []string
	for _, u := range slices.Sorted(slices.Values(units)) {
		switch {
		case u < s.start:
			names = append(names, "the start item "+s.o.Start[u].Label())
		case s.sp.over == render.SpaceDiffering:
			names = append(names, s.sp.groups[u-s.start].Title())
		default:
			names = append(names, fmt.Sprintf("call %d", s.sp.calls[u-s.start]))
		}
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// roleRuns counts the runs of steps with role.
func roleRuns(steps []Step, role string) int {
	n := 0
	for _, st := range steps {
		if st.Role == role {
			n++
		}
	}
	return n
}
