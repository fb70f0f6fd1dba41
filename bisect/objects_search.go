package bisect

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/render"
)

// objSearch is the state of one LocateObjects.
type objSearch struct {
	objs  []envobj.Object
	items []StartItem
	run   ObjectRunner
	o     ObjectOptions
	top   []*objUnit
	// memo is every decided request, by key: a request already decided
	// is not run again. known are those decided Pass or Fail, for the
	// flaky guard (objects_decide.go).
	memo  map[string]objDecided
	known []objKnown

	// narrow: the runs of the search proper are narrowed
	// (ObjectOptions.Narrow), until a narrowed search ends with no
	// confirmed causes.
	narrow bool
	// disagreed: runs of one request gave different verdicts (a tie, or
	// a re-run that disagreed with the run it re-made).
	disagreed bool

	steps    []ObjectStep
	step     int // search steps begun
	started  int // runs begun
	warnings []string
	warned   map[string]bool

	// unplaced is how many objects that differ here no run can put in
	// place (envobj.Hierarchy.Unplaced): when everything else in place
	// still fails, one of them may be what makes the difference.
	unplaced int
}

// LocateObjects finds what, among the objects that differ here (objs,
// from inspecting this environment against the trace) and the start
// items that differ (items), makes the command fail: it asks run for
// materialized runs, each putting the good state of some of them in
// place, checks the ends (nothing in place must fail, everything in
// place must pass), finds a 1-minimal set of causes over the hierarchy's
// first level (delta debugging), refines each inside its group as far as
// the report needs, confirms the set, and gives each cause its fix. See
// the package documentation, "The object search".
//
// Objects that cannot be materialized are not candidates; the report
// lists them (Unplaced). When even everything in place fails, the report
// says so (StillFails; Fallback is true) and names nothing: the caller
// searches at the call level. An error means a run could not be made
// (wrapped with what it put in place) or ctx was done; no report is
// returned then.
func LocateObjects(ctx context.Context, objs []envobj.Object, items []StartItem, run ObjectRunner, o ObjectOptions) (*ObjectReport, error) {
	if run == nil {
		return nil, errors.New("locate objects: no runner")
	}
	begin := time.Now()
	h := envobj.Build(objs)
	s := &objSearch{objs: objs, items: items, run: run, o: o, top: topUnits(items, h),
		memo: map[string]objDecided{}, warned: map[string]bool{}, unplaced: len(h.Unplaced)}
	s.narrow = o.Narrow
	rep, err := s.locate(ctx)
	if err != nil {
		return nil, err
	}
	if s.narrow && rep.Status != envobj.Located && !s.disagreed {
		// What the narrowed runs gave may be about their isolation (a
		// write where the recording wrote nothing failed): the search
		// is made again with every writable mount isolated, its flaky
		// guard knowing the verdicts of the fully isolated confirming
		// runs. Not when runs of one request disagreed: the command is
		// flaky, whatever its isolation, and the report says so.
		s.warn(fmt.Sprintf("with its runs' isolation narrowed to where the recording wrote, the search ended %s (%s): it was made again with every writable mount isolated", rep.Status, rep.Message))
		s.narrow = false
		if rep, err = s.locate(ctx); err != nil {
			return nil, err
		}
	}
	rep.Candidates = len(s.top)
	rep.Objects = len(objs) - len(h.Unplaced)
	rep.StartItems = len(items)
	rep.Unplaced = h.Unplaced
	rep.Steps = s.steps
	if rep.Steps == nil {
		rep.Steps = []ObjectStep{}
	}
	for _, st := range s.steps {
		if st.Role == render.RoleConfirm {
			rep.ConfirmRuns++
		} else {
			rep.Runs++
		}
	}
	rep.Warnings = s.warnings
	rep.Seconds = time.Since(begin).Seconds()
	return rep, nil
}

// locate is the search: the ends, delta debugging over the first level,
// refinement, confirmation.
func (s *objSearch) locate(ctx context.Context) (*ObjectReport, error) {
	fail, err := s.decide(ctx, request(nil), "", false)
	if err != nil {
		return nil, err
	}
	switch fail.v {
	case Pass:
		return &ObjectReport{Status: envobj.NoFailure, Message: "the command passed here with nothing put in place: there is nothing to locate"}, nil
	case Skip:
		return &ObjectReport{Status: envobj.Inconclusive, Message: "the run with nothing put in place could not be judged (skipped twice)"}, nil
	}
	if s.o.CheckRepeatable {
		again, err := s.decide(ctx, request(nil), "", true)
		if err != nil {
			return nil, err
		}
		if again.v == Pass {
			return &ObjectReport{Status: envobj.NotRepeatable, Message: "with nothing put in place the command failed once and then passed: it is flaky here, or depends on state outside the sandbox"}, nil
		}
	}
	if len(s.top) == 0 {
		return &ObjectReport{Status: envobj.StillFails, Message: "nothing that differs here can be put in place by a run: the call-level search is the fallback"}, nil
	}
	all := request(s.top)
	all.InPlace = "everything"
	pass, err := s.decide(ctx, all, "", false)
	if err != nil {
		return nil, err
	}
	switch pass.v {
	case Fail:
		return &ObjectReport{Status: envobj.StillFails, Message: s.stillFails()}, nil
	case Skip:
		return &ObjectReport{Status: envobj.Inconclusive, Message: "the run with everything put in place could not be judged (skipped twice)"}, nil
	}
	minimal, err := s.ddmin(ctx, s.top, nil)
	if err != nil {
		return nil, err
	}
	var causes []*objUnit
	for i, c := range minimal {
		r, err := s.refine(ctx, c, joined(causes, minimal[i+1:]))
		if err != nil {
			return nil, err
		}
		causes = append(causes, r...)
	}
	return s.confirm(ctx, causes)
}

// stillFails is the message of a search whose run with everything in
// place failed. When objects that differ here could not be put in place
// (the trace does not keep a file's content, a device), the difference
// may well be one of them, and the message must not say it is no object:
// a file the good run only stat'ed and that is missing here is such an
// object, and the call-level fallback names it.
func (s *objSearch) stillFails() string {
	if s.unplaced == 0 {
		return "with every object that differs here put in place the command still failed: what makes the difference is not an object a run can put in place, and the call-level search is the fallback"
	}
	return fmt.Sprintf("with every object that a run can put in place the command still failed, and %d that differ%s here could not be put in place (listed below): what makes the difference may be one of them, and the call-level search is the fallback",
		s.unplaced, plural(s.unplaced, "s", ""))
}
