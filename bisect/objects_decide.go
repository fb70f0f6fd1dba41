package bisect

import (
	"context"
	"fmt"
	"github.com/envbisect/envbisect/render"
	"time"
)

// objDecided is the verdict the object search took for one request.
type objDecided struct {
	v    Verdict
	step int // the search step that decided it
}

// objKnown is a request decided Pass or Fail, for the flaky guard.
type objKnown struct {
	req  ObjectRequest
	v    Verdict
	step int
}

// decide returns the verdict for req: the one already taken for the same
// request (unless fresh), else a step of its own (decideStep), run once
// more when it comes out Skip. role is the runs' role ("" or
// render.RoleConfirm).
func (s *objSearch) decide(ctx context.Context, req ObjectRequest, role string, fresh bool) (objDecided, error) {
	req.Narrow = s.narrow && role != render.RoleConfirm
	if d, ok := s.memo[req.key()]; ok && !fresh {
		return d, nil
	}
	d, err := s.decideStep(ctx, req, role)
	if err == nil && d.v == Skip {
		d, err = s.decideStep(ctx, req, role)
	}
	return d, err
}

// decideStep runs req as one search step and returns the verdict the
// search takes for it:
//
//   - ObjectOptions.Repeat runs, and the verdict most of them gave; on a
//     tie one more run, and if the tie remains, Skip;
//   - a verdict that contradicts one taken before (a pass where a request
//     that puts more in place failed, a fail where one that puts less in
//     place passed: putting good objects in place does not undo what
//     others did) is suspect: one more run, and if it disagrees, Skip.
func (s *objSearch) decideStep(ctx context.Context, req ObjectRequest, role string) (objDecided, error) {
	step := s.newStep()
	var runs []Outcome // the verdicts, for majority
	at := 0
	more := func() error {
		out, k, err := s.runOnce(ctx, req, step, role)
		runs = append(runs, Outcome{Verdict: out.Verdict})
		at = k
		return err
	}
	for range s.o.repeat() {
		if err := more(); err != nil {
			return objDecided{}, err
		}
	}
	v, ok := majority(runs)
	note := ""
	if !ok {
		if err := more(); err != nil {
			return objDecided{}, err
		}
		if v, ok = majority(runs); !ok {
			v, note = Skip, "runs disagree"
		}
		s.disagreed = true
	}
	if c, found := s.contradicts(req, v); found {
		if err := more(); err != nil {
			return objDecided{}, err
		}
		if again := runs[len(runs)-1].Verdict; again != v {
			note = fmt.Sprintf("contradicts step %d, and a re-run gave %s", c, again)
			v = Skip
			s.disagreed = true
		} else {
			note = fmt.Sprintf("contradicts step %d; a re-run agreed", c)
		}
	}
	if note == "" && len(runs) > 1 {
		note = fmt.Sprintf("%d of %d runs", count(runs, v), len(runs))
	}
	s.steps[at].Taken, s.steps[at].Note = v.String(), note
	d := objDecided{v: v, step: step}
	s.memo[req.key()] = d
	if v != Skip {
		s.known = append(s.known, objKnown{req: req, v: v, step: step})
	}
	return d, nil
}

// contradicts returns the step of a verdict taken before that v for req
// contradicts: a request that put at least as much in place failed where
// req passes, or one that put no more in place passed where req fails.
func (s *objSearch) contradicts(req ObjectRequest, v Verdict) (int, bool) {
	for _, k := range s.known {
		if k.req.Narrow != req.Narrow && !(req.Narrow && v == Pass || k.req.Narrow && k.v == Pass) {
			// Across isolations only a narrowed pass is weighed against
			// a fully isolated fail: a narrowed run that fails where a
			// full one passes may be failing for its isolation.
			continue
		}
		switch {
		case v == Pass && k.v == Fail && within(req, k.req):
			return k.step, true
		case v == Fail && k.v == Pass && within(k.req, req):
			return k.step, true
		}
	}
	return 0, false
}

// newStep begins a search step and returns its number.
func (s *objSearch) newStep() int {
	s.step++
	return s.step
}

// runOnce makes one run of req for search step step and adds it to the
// steps; it returns the outcome and the run's index in s.steps.
func (s *objSearch) runOnce(ctx context.Context, req ObjectRequest, step int, role string) (ObjectOutcome, int, error) {
	if err := ctx.Err(); err != nil {
		return ObjectOutcome{}, 0, fmt.Errorf("run with %s in place: %w", req.InPlace, err)
	}
	s.started++
	req.Run, req.Role = s.started, role
	p := ObjectProgress{Step: step, Run: s.started, Request: req}
	s.progress(p)
	start := time.Now()
	out, err := s.run.RunObjects(ctx, req)
	if err == nil {
		err = ctx.Err() // a run cut short by cancellation has no verdict
	}
	if err != nil {
		return ObjectOutcome{}, 0, fmt.Errorf("run with %s in place: %w", req.InPlace, err)
	}
	if out.Verdict < Pass || out.Verdict > Skip {
		return ObjectOutcome{}, 0, fmt.Errorf("run with %s in place: the runner gave no verdict (%d)", req.InPlace, out.Verdict)
	}
	if out.Seconds <= 0 {
		out.Seconds = time.Since(start).Seconds()
	}
	s.steps = append(s.steps, ObjectStep{Step: step, Role: role, InPlace: req.InPlace, Objects: len(req.Objects),
		Start: len(req.Start), Verdict: out.Verdict.String(), Detail: out.Detail, Exit: out.Exit, Seconds: out.Seconds, Stops: out.Stops, Narrowed: req.Narrow})
	for _, w := range out.Warnings {
		s.warn(w)
	}
	p.Done, p.Outcome = true, out
	s.progress(p)
	return out, len(s.steps) - 1, nil
}

// warn adds w to the report's warnings, once.
func (s *objSearch) warn(w string) {
	if !s.warned[w] {
		s.warned[w] = true
		s.warnings = append(s.warnings, w)
	}
}

func (s *objSearch) progress(p ObjectProgress) {
	if s.o.Progress != nil {
		s.o.Progress(p)
	}
}
