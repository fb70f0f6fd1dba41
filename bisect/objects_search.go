package bisect

import (
	"context"
	"errors"
	"time"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/render"
)

// maxGroupDD bounds the children of a directory that delta debugging
// runs over when no single child of it is a cause: finding that all k
// of them are needed takes about 4k runs, so a larger directory is named
// whole instead (like a package).
const maxGroupDD = 8

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

	steps    []ObjectStep
	step     int // search steps begun
	started  int // runs begun
	warnings []string
	warned   map[string]bool
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
		memo: map[string]objDecided{}, warned: map[string]bool{}}
	rep, err := s.locate(ctx)
	if err != nil {
		return nil, err
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
		return &ObjectReport{Status: envobj.StillFails, Message: "with every object that differs here put in place the command still failed: what makes the difference is not an object a run can put in place, and the call-level search is the fallback"}, nil
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

// passes decides the run with held (the other causes, in place
// throughout a refinement) and units in place, and reports whether it
// passed (a skipped step does not).
func (s *objSearch) passes(ctx context.Context, held, units []*objUnit) (bool, error) {
	d, err := s.decide(ctx, request(joined(held, units)), "", false)
	return d.v == Pass, err
}

// ddmin is Zeller's ddmin over units, with held in place in every
// run: the run with held and all of units passes, and ddmin returns
// a subset that still passes and from which no single unit can be
// removed (1-minimal; a skipped run counts as not passing). It splits
// units into n parts, keeps a part that passes alone (n back to 2) or
// the complement of one that passes (n one less), or doubles n until
// every part is one unit.
func (s *objSearch) ddmin(ctx context.Context, units, held []*objUnit) ([]*objUnit, error) {
	n := 2
	for len(units) >= 2 {
		parts := split(units, n)
		reduced := false
		for _, p := range parts {
			ok, err := s.passes(ctx, held, p)
			if err != nil {
				return nil, err
			}
			if ok {
				units, n, reduced = p, 2, true
				break
			}
		}
		if !reduced && n > 2 { // with two parts, each is the other's complement
			for _, p := range parts {
				comp := minus(units, p)
				ok, err := s.passes(ctx, held, comp)
				if err != nil {
					return nil, err
				}
				if ok {
					units, n, reduced = comp, max(n-1, 2), true
					break
				}
			}
		}
		if !reduced {
			if n >= len(units) {
				break
			}
			n = min(2*n, len(units))
		}
	}
	return units, nil
}

// refine narrows the cause u, with held in place (the other causes),
// to what the report names: the highest object or group that is a
// cause. A start item or an object is itself. A package is named whole
// unless one of its files alone makes the run pass (then that file). A
// directory (or the group of modification times) is descended into: one
// child alone that passes is refined in turn; else delta debugging over
// its children finds the ones needed, each refined, and when all are
// needed the directory is named whole (a directory of more than
// maxGroupDD children is named whole when no single one passes).
func (s *objSearch) refine(ctx context.Context, u *objUnit, held []*objUnit) ([]*objUnit, error) {
	kids := u.children(s.objs)
	switch {
	case len(kids) == 0:
		return []*objUnit{u}, nil
	case len(kids) == 1:
		if u.group.Kind == envobj.GroupPackage {
			return kids, nil // its one file
		}
		return s.refine(ctx, kids[0], held)
	case u.group.Kind == envobj.GroupPackage || len(kids) > maxGroupDD:
		one, err := s.single(ctx, kids, held)
		if err != nil || one == nil {
			return []*objUnit{u}, err
		}
		return s.refine(ctx, one, held)
	}
	needed, err := s.ddmin(ctx, kids, held)
	if err != nil {
		return nil, err
	}
	if len(needed) == len(kids) {
		return []*objUnit{u}, nil
	}
	var out []*objUnit
	for i, k := range needed {
		r, err := s.refine(ctx, k, joined(held, out, needed[i+1:]))
		if err != nil {
			return nil, err
		}
		out = append(out, r...)
	}
	return out, nil
}

// single finds one of units that passes alone with held in place, by
// halving: the half that passes holds it (putting more good objects in
// place does not undo what one did), and when neither half passes no
// single unit does. nil: none does. About 2·log2(len(units)) runs.
func (s *objSearch) single(ctx context.Context, units, held []*objUnit) (*objUnit, error) {
	for len(units) > 1 {
		halves := split(units, 2)
		found := false
		for _, h := range halves {
			ok, err := s.passes(ctx, held, h)
			if err != nil {
				return nil, err
			}
			if ok {
				units, found = h, true
				break
			}
		}
		if !found {
			return nil, nil
		}
	}
	return units[0], nil
}
