package bisect

import (
	"context"
	"errors"
	"math/bits"
	"sort"
	"sync"
	"time"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
)

// search is the state of one Locate.
type search struct {
	g       *depgraph.Graph
	run     Runner
	o       Options
	cands   []uint64 // Candidates(g)
	start   int      // len(o.Start): prefix indexes 1..start replay start items
	sp      *space   // what the search runs over now
	obs     *observer
	lastSeq uint64 // the trace's last call, what All means in the report
	est     int    // about how many steps in all, for Progress
	// failedLive are the live calls of the run that ended the search
	// without a culprit (identity.go).
	failedLive map[uint64]*trace.Call
	// failLive are the live calls of the fail end, the run with nothing
	// replayed, where every call it made ran live (firstdiff.go).
	failLive map[uint64]*trace.Call
	// ends are the decided ends, by request (endpoint), so that a
	// search that falls back does not run one twice.
	ends map[string]decided
	// memo is every decided step, by request, for the confirmation runs
	// (confirm.go): a request the search already decided is not run
	// again.
	memo map[string]decided

	// mu guards what the runs of a parallel round share (Options.Jobs).
	mu      sync.Mutex
	steps   []Step // one per run
	step    int    // search steps begun
	started int    // runs begun
	round   int    // the parallel round under way; 0 in a sequential search
	// warnings are the runs' Outcome.Warnings, each once (warned).
	warnings []string
	warned   map[string]bool
}

// Locate finds the first recorded call whose replay makes the command
// pass here. It asks run for semi-replay runs, each replaying a prefix of
// the candidate calls (Candidates), checks the two ends (nothing replayed
// must fail, everything replayed must pass) and then binary-searches
// between them; see the package documentation for the whole mechanism.
//
// The Report says how the search ended; only a Located report names a
// culprit. An error means the search could not go on: run failed to make
// a run (wrapped with the step, "run with calls up to 21 replayed: ..."),
// or ctx was done (the error wraps ctx.Err()); no report is returned then.
func Locate(ctx context.Context, g *depgraph.Graph, run Runner, o Options) (*Report, error) {
	if g == nil || run == nil {
		return nil, errors.New("locate: no dependency graph or no runner")
	}
	start := time.Now()
	s := &search{g: g, run: run, o: o, cands: Candidates(g), start: len(o.Start), ends: map[string]decided{}, memo: map[string]decided{}}
	s.sp = s.everyCall("")
	s.obs = s.newObserver()
	if n := g.NumCalls(); n > 0 {
		s.lastSeq = g.SeqAt(n - 1)
	}
	s.est = 1
	if m := s.sp.size(); m > 0 {
		s.est = 2 + log2ceil(m)
	}
	var rep *Report
	var err error
	if o.jobs() > 1 {
		rep, err = s.locateParallel(ctx)
	} else {
		rep, err = s.locate(ctx)
	}
	if err != nil {
		return nil, err
	}
	if o.jobs() > 1 {
		// The runs of a round end in any order: list them by step.
		sort.SliceStable(s.steps, func(i, j int) bool { return s.steps[i].Step < s.steps[j].Step })
	}
	rep.RepeatRuns = repeatRuns(s.steps)
	rep.ConfirmRuns = roleRuns(s.steps, render.RoleConfirm)
	rep.CauseRuns = roleRuns(s.steps, render.RoleCause)
	rep.Runs = len(s.steps) - rep.RepeatRuns - rep.ConfirmRuns - rep.CauseRuns
	rep.Steps = s.steps
	rep.Warnings = s.warnings
	rep.RecordedCalls = g.NumCalls()
	rep.ReplayableCalls = len(s.cands)
	rep.StartItems = s.start
	if s.sp.over == render.SpaceDiffering || s.sp.fallback != "" {
		rep.Space = s.sp.report() // the search got past its fail end
		for _, it := range o.Start {
			rep.Space.StartItems = append(rep.Space.StartItems, it.Label())
		}
	}
	if o.Lost.Any() {
		rep.Lost = o.Lost
	}
	rep.NotServed = notServed(g)
	rep.Isolation = o.Isolation
	rep.Command = o.Command
	if rep.Command == nil && o.Header != nil {
		rep.Command = o.Header.Command
	}
	s.explainIdentity(rep)
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// locate is the search proper: the fail end, the ends of the space of
// what differs here (or of every call), then bisection with the
// invariant that prefix index lo fails and hi passes.
func (s *search) locate(ctx context.Context) (*Report, error) {
	fail, err := s.endpoint(ctx, 0)
	if err != nil {
		return nil, err
	}
	switch fail.v {
	case Pass:
		return s.noFailure(fail), nil
	case Skip:
		return s.undecidedEnd(0, fail), nil
	}
	if r, err := s.recheckFailEnd(ctx); err != nil || r != nil {
		return r, err
	}
	if r := s.identityEnd(fail); r != nil {
		return r, nil
	}
	if s.sp.size() == 0 {
		return s.nothingReplayable(fail), nil
	}
	hi, ok, err := s.differingEnds(ctx, fail, s.endpoint)
	if err != nil {
		return nil, err
	}
	if !ok {
		pass, err := s.endpoint(ctx, s.sp.size())
		if err != nil {
			return nil, err
		}
		var r *Report
		if hi, r, err = s.everyCallEnd(ctx, pass, s.endpoint); err != nil || r != nil {
			return r, err
		}
	}

	lo, atLo := 0, fail.out
	skipped := map[int]bool{}
	for hi-lo > 1 {
		mid, ok := pick(lo, hi, skipped)
		if !ok {
			return s.undecided(lo, hi), nil
		}
		s.est = max(s.est, s.step+max(1, log2ceil(hi-lo)))
		d, err := s.decide(ctx, mid)
		if err != nil {
			return nil, err
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
	found, err := s.confirm(ctx, s.located(hi-1, atLo), hi-1, atLo)
	if err != nil {
		return nil, err
	}
	return s.recheckAtEnd(ctx, found)
}

// startAloneNeeded reports whether the pass end (everything replayed)
// failed while start items are candidates: then the run with the start
// items alone replayed, and no call, is made. A run that replays calls
// too can fail for its own sake (a replayed write that skips the
// artifact, a program told a mix of recorded and live answers about the
// same file); when the start items alone pass, the culprit is one of
// them, and the search goes on between nothing and them.
func (s *search) startAloneNeeded(pass decided) bool {
	return pass.v == Fail && s.start > 0 && s.start < s.sp.size()
}

// everyCallEnd finishes the pass end of the search over every call:
// pass is the run with every call replayed. When it failed and start
// items are candidates, the start items alone are decided with end, and
// when they pass they are the pass end. It returns the pass end's index,
// or the report to end with when there is none.
func (s *search) everyCallEnd(ctx context.Context, pass decided, end endFunc) (int, *Report, error) {
	m := s.sp.size()
	hi := m
	if s.startAloneNeeded(pass) {
		d, err := end(ctx, s.start)
		if err != nil {
			return 0, nil, err
		}
		if d.v == Pass {
			pass, hi = d, s.start
		}
	}
	switch pass.v {
	case Fail:
		return 0, s.stillFails(pass), nil
	case Skip:
		return 0, s.undecidedEnd(m, pass), nil
	}
	return hi, nil, nil
}

// endpoint decides one end of the search, running the step a second time
// when the first gave Skip. An end already decided for the same request
// (before the search fell back to every call) is not run again.
func (s *search) endpoint(ctx context.Context, i int) (decided, error) {
	key := s.sp.request(i).key()
	if d, ok := s.ends[key]; ok {
		return d, nil
	}
	d, err := s.decide(ctx, i)
	if err == nil && d.v == Skip {
		s.est++
		d, err = s.decide(ctx, i)
	}
	if err == nil {
		s.ends[key] = d
	}
	return d, err
}

// request is the run of prefix index i of the space searched.
func (s *search) request(i int) Request { return s.sp.request(i) }

// pick returns the index in (lo, hi) to test next: the middle, or when
// it was skipped the nearest untested index, looking above before below
// (mid+1, mid-1, mid+2, ...). false: every index in between was skipped.
func pick(lo, hi int, skipped map[int]bool) (int, bool) {
	mid := lo + (hi-lo)/2
	for d := 0; mid+d < hi || mid-d > lo; d++ {
		if i := mid + d; i > lo && i < hi && !skipped[i] {
			return i, true
		}
		if i := mid - d; d > 0 && i > lo && !skipped[i] {
			return i, true
		}
	}
	return 0, false
}

// log2ceil is ceil(log2 n) for n >= 1, 0 below.
func log2ceil(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}
