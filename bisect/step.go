package bisect

import (
	"context"
	"fmt"
	"time"
)

// decided is the verdict the search takes for one step, with the outcome
// of a run that gave it. Its outcome holds live calls (Outcome.Live) only
// when the verdict is Fail: the search reads the live calls of failing
// runs alone (the fail end's, the failing run next to a culprit or a
// cause, the run that ended the search still failing), and every
// decision stays in search.memo and search.ends to the end of the
// search, where a passing run that executed a long loop would hold a
// map entry per call it made.
type decided struct {
	v   Verdict
	out Outcome
	at  int // the index in search.steps of the step's last run
}

// decide runs prefix index i as one search step and returns the verdict
// the search takes for it:
//
//   - Options.Repeat runs, and the verdict most of them gave; on a tie one
//     more run, and if the tie remains, Skip.
//   - When every run that gave that verdict diverged from the recording,
//     the verdict is suspect: one more run, and if it disagrees, Skip.
//
// The outcome kept is that of the first run that gave the verdict and
// followed the recording, or else of the first that gave it.
func (s *search) decide(ctx context.Context, i int) (decided, error) {
	return s.decideAs(ctx, i, 0, s.newStep())
}

// decideAs is decide as search step step, in parallel slot job
// (Request.Job); rounds of parallel runs call it from several goroutines
// at once.
func (s *search) decideAs(ctx context.Context, i, job, step int) (decided, error) {
	return s.decideRequest(ctx, i, s.request(i), job, step, "")
}

// decideRequest is decideAs for any request: req is the run of prefix
// index i of the space searched, or, with a role (render.RoleConfirm,
// render.RoleCause), a run outside the search proper. Every decision is
// kept by request (search.memo), so that a confirmation does not make a
// run the search already made.
func (s *search) decideRequest(ctx context.Context, i int, req Request, job, step int, role string) (decided, error) {
	var runs []Outcome
	at := 0 // the index in s.steps of the step's last run
	more := func() error {
		out, k, err := s.runOnce(ctx, i, req, step, job, role)
		runs = append(runs, out)
		at = k
		return err
	}
	for range s.o.repeat() {
		if err := more(); err != nil {
			return decided{}, err
		}
	}
	v, ok := majority(runs)
	note := ""
	if !ok {
		if err := more(); err != nil {
			return decided{}, err
		}
		if v, ok = majority(runs); !ok {
			v, note = Skip, "runs disagree"
		}
	}
	// A run that replays nothing executes every call: a thread that
	// diverged there cannot have been answered wrongly, so its verdict
	// needs no second run (the failing program takes another path than
	// the recording, as it must).
	if v != Skip && !req.replaysNothing() && allDiverged(runs, v) {
		if err := more(); err != nil {
			return decided{}, err
		}
		if again := runs[len(runs)-1].Verdict; again != v {
			note = fmt.Sprintf("diverged, and a re-run gave %s", again)
			v = Skip
		} else {
			note = "diverged; a re-run agreed"
		}
	}
	if t := taint(runs); v == Skip && note == "" && t != "" {
		note = "tainted: " + t
	}
	if note == "" && len(runs) > 1 {
		note = fmt.Sprintf("%d of %d runs", count(runs, v), len(runs))
	}
	d := decided{v: v, out: representative(runs, v), at: at}
	if v != Fail {
		d.out.Live = nil // never read (decided)
	}
	s.mu.Lock()
	s.steps[at].Taken, s.steps[at].Note = v, note
	if s.memo != nil {
		s.memo[req.key()] = d
	}
	s.mu.Unlock()
	return d, nil
}

// majority returns the verdict more runs gave than any other, false on a
// tie.
func majority(runs []Outcome) (Verdict, bool) {
	best, n, tie := Verdict(0), 0, false
	for _, v := range []Verdict{Fail, Pass, Skip} {
		switch c := count(runs, v); {
		case c > n:
			best, n, tie = v, c, false
		case c == n && c > 0:
			tie = true
		}
	}
	return best, !tie
}

func count(runs []Outcome, v Verdict) int {
	n := 0
	for _, r := range runs {
		if r.Verdict == v {
			n++
		}
	}
	return n
}

// taint returns the reason of the first tainted run, "" when none was.
func taint(runs []Outcome) string {
	for _, r := range runs {
		if r.Taint != "" {
			return r.Taint
		}
	}
	return ""
}

// allDiverged reports whether every run that gave v diverged.
func allDiverged(runs []Outcome, v Verdict) bool {
	for _, r := range runs {
		if r.Verdict == v && !r.Diverged {
			return false
		}
	}
	return true
}

// representative returns the outcome of the first run that gave v and
// followed the recording, else of the first that gave v, else the last.
func representative(runs []Outcome, v Verdict) Outcome {
	pick := -1
	for i, r := range runs {
		if r.Verdict != v {
			continue
		}
		if !r.Diverged {
			return r
		}
		if pick < 0 {
			pick = i
		}
	}
	if pick < 0 {
		pick = len(runs) - 1
	}
	return runs[pick]
}

// newStep begins a search step and returns its number.
func (s *search) newStep() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.step++
	return s.step
}

// runOnce makes one run of req (prefix index i, or a run with a role)
// for search step step, in parallel slot job, and adds it to the steps;
// it returns the run's index in s.steps.
func (s *search) runOnce(ctx context.Context, i int, req Request, step, job int, role string) (Outcome, int, error) {
	req.Job = job
	if err := ctx.Err(); err != nil {
		return Outcome{}, 0, fmt.Errorf("%s: %w", req.describe(), err)
	}
	s.mu.Lock()
	s.started++
	req.Run, req.Role = s.started, role
	p := Progress{Step: step, Steps: max(s.est, s.step), Run: s.started, Round: s.round,
		Index: i, Candidates: s.sp.size(), Request: req}
	s.progress(p)
	s.mu.Unlock()
	start := time.Now()
	out, err := s.run.Run(ctx, req)
	if err == nil {
		err = ctx.Err() // a run cut short by cancellation has no verdict
	}
	if err != nil {
		return Outcome{}, 0, fmt.Errorf("%s: %w", req.describe(), err)
	}
	if out.Verdict < Pass || out.Verdict > Skip {
		return Outcome{}, 0, fmt.Errorf("%s: the runner gave no verdict (%d)", req.describe(), out.Verdict)
	}
	if out.Taint != "" {
		out.Verdict = Skip // neither pass nor fail: try a neighbour
	}
	if out.Seconds <= 0 {
		out.Seconds = time.Since(start).Seconds()
	}
	st := Step{Step: step, Round: p.Round, Index: i, Start: req.Start, Prefix: req.Prefix, Resources: len(req.Groups), Verdict: out.Verdict,
		Except: len(req.StartExcept) + len(req.Except), Role: role,
		Detail: out.Detail, Seconds: out.Seconds, Divergences: out.Divergences, Taint: out.Taint}
	if req.Prefix == All {
		st.Prefix, st.All = s.lastSeq, true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.steps = append(s.steps, st)
	s.noteWarnings(out.Warnings)
	p.Done, p.Outcome = true, out
	s.progress(p)
	return out, len(s.steps) - 1, nil
}

func (s *search) progress(p Progress) {
	if s.o.Progress != nil {
		s.o.Progress(p)
	}
}
