package bisect

import (
	"context"
	"sync"
)

// The parallel search (Options.Jobs = k > 1). Runs are isolated (locate's
// sandbox), so independent runs can go at once: each round runs up to k
// prefix indexes together, spread evenly over the open interval, and
// keeps the part between the last failing and the first passing one. That
// is a (k+1)-ary search: about ⌈log_(k+1) M⌉ rounds instead of ⌈log2 M⌉
// runs. The first round runs the fail end and the pass end of every call
// (the fallback's) together; the pass end of what differs here needs the
// fail end's observations, so it is a round of its own after it (and so
// is each widening), and the narrowing then runs over that space. The
// repeatability
// check's runs take slots that would otherwise idle: the second run of
// the fail end goes with the ends when k > 2, else with the first round
// of the search; the final one with the last round when that round leaves
// a slot free. With verdicts that only change once, from fail to pass, it
// finds the same call as the sequential search.

// locateParallel is locate with rounds of parallel runs.
func (s *search) locateParallel(ctx context.Context) (*Report, error) {
	m := s.sp.size() // every call: its pass end goes with the fail end
	k := s.o.jobs()
	repeatPending := s.o.CheckRepeatable
	ends := []int{0}
	if m > 0 {
		ends = append(ends, m)
	}
	repeatWithEnds := repeatPending && len(ends) < k
	if repeatWithEnds {
		ends = append(ends, 0)
	}
	s.est = 1 + roundsFor(m, k)
	ds, err := s.parallelRound(ctx, ends)
	if err != nil {
		return nil, err
	}
	fail := ds[0]
	if fail.v == Skip {
		// As in the sequential search: an end that skipped runs once more.
		if fail, err = s.soloRound(ctx, 0); err != nil {
			return nil, err
		}
	}
	switch fail.v {
	case Pass:
		return s.noFailure(fail), nil
	case Skip:
		return s.undecidedEnd(0, fail), nil
	}
	// checkRepeat reads the second run of the fail end.
	checkRepeat := func(d decided) *Report {
		repeatPending = false
		s.markRepeat(d.at, d.v)
		if d.v == Pass {
			return s.notRepeatable("the command failed here with nothing replayed, then passed in a run made the same way")
		}
		return nil
	}
	// soloRepeat makes the second run of the fail end as a round of its own.
	soloRepeat := func() (*Report, error) {
		d, err := s.soloRound(ctx, 0)
		if err != nil {
			return nil, err
		}
		return checkRepeat(d), nil
	}
	if repeatWithEnds {
		if r := checkRepeat(ds[len(ds)-1]); r != nil {
			return r, nil
		}
	}
	if r := s.identityEnd(fail); r != nil {
		if repeatPending {
			if r, err := soloRepeat(); err != nil || r != nil {
				return r, err
			}
		}
		return r, nil
	}
	if m == 0 {
		if repeatPending {
			if r, err := soloRepeat(); err != nil || r != nil {
				return r, err
			}
		}
		return s.nothingReplayable(fail), nil
	}
	// The pass end of what differs here needs the fail end's run; the
	// first round's pass end (every call) is the fallback's.
	solo := func(ctx context.Context, i int) (decided, error) {
		d, err := s.soloRound(ctx, i)
		if err == nil && d.v == Skip {
			d, err = s.soloRound(ctx, i)
		}
		return d, err
	}
	hi, ok, err := s.differingEnds(ctx, fail, solo)
	if err != nil {
		return nil, err
	}
	if !ok {
		pass := ds[1]
		if pass.v == Skip {
			if pass, err = s.soloRound(ctx, m); err != nil {
				return nil, err
			}
		}
		if pass.v != Pass && repeatPending {
			// The sequential search checks repeatability before it says
			// anything about the ends.
			if r, err := soloRepeat(); err != nil || r != nil {
				return r, err
			}
		}
		var r *Report
		if hi, r, err = s.everyCallEnd(ctx, pass, solo); err != nil || r != nil {
			return r, err
		}
	}

	lo, atLo := 0, fail.out
	skipped := map[int]bool{}
	var final *decided // the final repeatability run, when it went with the last round
	for hi-lo > 1 {
		free := k
		if repeatPending {
			free--
		}
		pts := spread(lo, hi, free, skipped)
		if len(pts) == 0 {
			return s.undecided(lo, hi), nil
		}
		idx := append([]int(nil), pts...)
		if repeatPending {
			idx = append(idx, 0)
		}
		last := len(pts) == openCount(lo, hi, skipped) // every open index is decided in this round
		withFinal := s.o.CheckRepeatable && final == nil && last && len(idx) < k
		if withFinal {
			idx = append(idx, 0)
		}
		s.est = max(s.est, s.round+roundsFor(hi-lo, k))
		ds, err := s.parallelRound(ctx, idx)
		if err != nil {
			return nil, err
		}
		if repeatPending {
			if r := checkRepeat(ds[len(pts)]); r != nil {
				return r, nil
			}
		}
		if withFinal {
			d := ds[len(ds)-1]
			s.markRepeat(d.at, d.v)
			final = &d
		}
		newHi := hi
		for j, d := range ds[:len(pts)] {
			if d.v == Pass {
				newHi = pts[j]
				break
			}
		}
		for j, d := range ds[:len(pts)] {
			switch {
			case d.v == Skip:
				skipped[pts[j]] = true
			case d.v == Fail && pts[j] < newHi && pts[j] > lo:
				lo, atLo = pts[j], d.out
			}
		}
		hi = newHi
	}
	if repeatPending {
		if r, err := soloRepeat(); err != nil || r != nil {
			return r, err
		}
	}
	found, err := s.confirm(ctx, s.located(hi-1, atLo), hi-1, atLo)
	if err != nil {
		return nil, err
	}
	if final != nil {
		return s.endsRepeatable(found, final.v), nil
	}
	return s.recheckAtEnd(ctx, found)
}

// openCount is how many indexes in (lo, hi) are not skipped.
func openCount(lo, hi int, skipped map[int]bool) int {
	n := 0
	for i := lo + 1; i < hi; i++ {
		if !skipped[i] {
			n++
		}
	}
	return n
}

// parallelRound decides the prefix indexes idx as one round, at most
// Options.Jobs at once, each run in a free slot (Request.Job), and
// returns their decisions in the same order.
func (s *search) parallelRound(ctx context.Context, idx []int) ([]decided, error) {
	s.mu.Lock()
	s.round++
	s.mu.Unlock()
	slots := make(chan int, s.o.jobs())
	for j := range s.o.jobs() {
		slots <- j
	}
	ds := make([]decided, len(idx))
	errs := make([]error, len(idx))
	var wg sync.WaitGroup
	for j, i := range idx {
		step := s.newStep() // numbered in index order, whichever ends first
		wg.Add(1)
		go func() {
			defer wg.Done()
			slot := <-slots
			defer func() { slots <- slot }()
			ds[j], errs[j] = s.decideAs(ctx, i, slot, step)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return ds, nil
}

// soloRound decides prefix index i alone, as a round of its own.
func (s *search) soloRound(ctx context.Context, i int) (decided, error) {
	ds, err := s.parallelRound(ctx, []int{i})
	if err != nil {
		return decided{}, err
	}
	return ds[0], nil
}

// spread picks up to k prefix indexes in (lo, hi), none skipped, evenly
// spaced, in increasing order.
func spread(lo, hi, k int, skipped map[int]bool) []int {
	var open []int
	for i := lo + 1; i < hi; i++ {
		if !skipped[i] {
			open = append(open, i)
		}
	}
	if len(open) <= k {
		return open
	}
	out := make([]int, 0, k)
	for j := 1; j <= k; j++ {
		i := open[j*len(open)/(k+1)]
		if len(out) == 0 || out[len(out)-1] != i {
			out = append(out, i)
		}
	}
	return out
}

// roundsFor is about how many rounds of k runs narrow n indexes down to
// one: ⌈log_(k+1) n⌉.
func roundsFor(n, k int) int {
	r := 0
	for span := 1; span < n; span *= k + 1 {
		r++
	}
	return r
}
