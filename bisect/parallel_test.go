package bisect

import (
	"context"
	"sync"
	"testing"
	"time"
)

// lockedRunner makes a Runner that is not safe for concurrent use safe.
type lockedRunner struct {
	mu sync.Mutex
	r  Runner
}

func (l *lockedRunner) Run(ctx context.Context, r Request) (Outcome, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.Run(ctx, r)
}

// TestParallelSameAnswer: with 2 and 3 jobs the search names the same
// call as the sequential one, in fewer rounds than sequential runs, and
// every run has its round and a slot below the number of jobs.
func TestParallelSameAnswer(t *testing.T) {
	b := standard(t)
	g := b.graph()
	cands := Candidates(g)
	for _, jobs := range []int{2, 3} {
		for _, culprit := range cands {
			seq, err := Locate(context.Background(), g, &fake{g: g, culprit: culprit}, Options{Events: b.Events, CheckRepeatable: true})
			if err != nil {
				t.Fatal(err)
			}
			f := &fake{g: g, culprit: culprit}
			par, err := Locate(context.Background(), g, &lockedRunner{r: f}, Options{Events: b.Events, CheckRepeatable: true, Jobs: jobs})
			if err != nil {
				t.Fatal(err)
			}
			if par.Status != Located || par.Culprit == nil || seq.Culprit == nil || par.Culprit.Seq != seq.Culprit.Seq {
				t.Fatalf("jobs %d, culprit %d: parallel %s %+v, sequential %+v", jobs, culprit, par.Status, par.Culprit, seq.Culprit)
			}
			rounds := 0
			for i, st := range par.Steps {
				if st.Round < 1 {
					t.Errorf("jobs %d: step %d has round %d", jobs, i, st.Round)
				}
				rounds = max(rounds, st.Round)
			}
			// The ends and the repeat go in round 1; then ⌈log_(k+1) M⌉ rounds
			// at most, the confirmation's (its two runs at once), and the
			// final check.
			if limit := 3 + roundsFor(len(cands), jobs); rounds > limit {
				t.Errorf("jobs %d, culprit %d: %d rounds, want at most %d", jobs, culprit, rounds, limit)
			}
			for _, r := range f.runs {
				if r.Job < 0 || r.Job >= jobs {
					t.Errorf("run with slot %d of %d jobs", r.Job, jobs)
				}
			}
		}
	}
}

// barrierRunner passes a run only once n runs are under way at once, so
// a search that never runs in parallel times out.
type barrierRunner struct {
	mu      sync.Mutex
	waiting int
	peak    int
	inner   lockedRunner
}

func (b *barrierRunner) Run(ctx context.Context, r Request) (Outcome, error) {
	b.mu.Lock()
	b.waiting++
	b.peak = max(b.peak, b.waiting)
	b.mu.Unlock()
	time.Sleep(20 * time.Millisecond)
	out, err := b.inner.Run(ctx, r)
	b.mu.Lock()
	b.waiting--
	b.mu.Unlock()
	return out, err
}

func TestParallelRunsOverlap(t *testing.T) {
	b := standard(t)
	g := b.graph()
	cands := Candidates(g)
	br := &barrierRunner{inner: lockedRunner{r: &fake{g: g, culprit: cands[len(cands)/2]}}}
	rep, err := Locate(context.Background(), g, br, Options{Events: b.Events, Jobs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || br.peak < 2 {
		t.Errorf("status %s, at most %d runs at once; want located with 2 at once", rep.Status, br.peak)
	}
}

func TestSpread(t *testing.T) {
	cases := []struct {
		lo, hi, k int
		skipped   map[int]bool
		want      []int
	}{
		{0, 10, 2, nil, []int{4, 7}},
		{0, 3, 2, nil, []int{1, 2}},
		{0, 3, 3, nil, []int{1, 2}},
		{0, 10, 1, nil, []int{5}},
		{0, 4, 2, map[int]bool{1: true, 2: true, 3: true}, nil},
	}
	for _, c := range cases {
		got := spread(c.lo, c.hi, c.k, c.skipped)
		if len(got) != len(c.want) {
			t.Errorf("spread(%d, %d, %d) = %v, want %v", c.lo, c.hi, c.k, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("spread(%d, %d, %d) = %v, want %v", c.lo, c.hi, c.k, got, c.want)
			}
		}
	}
}
