package bisect

import (
	"context"

	"github.com/envbisect/envbisect/envobj"
)

// maxGroupDD bounds the children of a directory that delta debugging
// runs over when no single child of it is a cause: finding that all k
// of them are needed takes about 4k runs, so a larger directory is named
// whole instead (like a package).
const maxGroupDD = 8

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
