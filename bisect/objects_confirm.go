package bisect

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/render"
)

// confirm checks the causes the search ended at with runs of their own
// (role confirm): the causes alone in place must pass, in a run made
// afresh even when the search made the same one (it is the run that
// validates the fix); and for each cause, everything else in place but
// it must fail (a request already decided is not run again). A check
// that does not hold, or is skipped twice, ends the search as
// Unconfirmed, naming nothing.
func (s *objSearch) confirm(ctx context.Context, causes []*objUnit) (*ObjectReport, error) {
	alone := request(causes)
	d, err := s.decide(ctx, alone, render.RoleConfirm, true)
	if err != nil {
		return nil, err
	}
	if d.v != Pass {
		return s.unconfirmed(causes, d.step, fmt.Sprintf("with %s alone in place the command did not pass (%s)", causesText(causes), d.v)), nil
	}
	validatedBy := d.step
	all := request(s.top)
	for _, c := range causes {
		but, err := s.decide(ctx, without(all, c), render.RoleConfirm, false)
		if err != nil {
			return nil, err
		}
		if but.v != Fail {
			return s.unconfirmed(causes, but.step, fmt.Sprintf("with everything but %s in place the command did not fail (%s): something else stands in for it", c.name, but.v)), nil
		}
	}
	return s.located(causes, validatedBy), nil
}

// causesText names causes: "/tmp", "/tmp and env TZ", "3 causes".
func causesText(causes []*objUnit) string {
	switch len(causes) {
	case 1:
		return causes[0].name
	case 2:
		return causes[0].name + " and " + causes[1].name
	}
	return fmt.Sprintf("these %d causes", len(causes))
}

// unconfirmed is the report of causes a confirming run (step) did not
// bear out.
func (s *objSearch) unconfirmed(causes []*objUnit, step int, why string) *ObjectReport {
	return &ObjectReport{Status: envobj.Unconfirmed, Message: "the search ended at " + causesText(causes) + ", but " + why,
		Suspects: s.causes(causes), Disagreeing: []int{step}}
}

// located is the report of confirmed causes, with their fix, validated
// by step validatedBy (the causes alone in place passed).
func (s *objSearch) located(causes []*objUnit, validatedBy int) *ObjectReport {
	rc := s.causes(causes)
	fix := &envobj.Fix{Validated: true, ValidatedBy: validatedBy}
	var notes []string
	for _, c := range rc {
		fix.Steps = append(fix.Steps, c.Fix...)
		if c.Start != nil && c.Start.Kind == envobj.KindAddress {
			notes = append(notes, envobj.AddressNote)
		}
		if c.Start != nil && c.Start.Kind == envobj.KindKernel && !slices.Contains(notes, envobj.KernelNote) {
			notes = append(notes, envobj.KernelNote)
		}
		if c.Start != nil && c.Start.Kind == envobj.KindPeer {
			notes = append(notes, envobj.PeerNote)
		}
		if c.Kind == string(envobj.GroupPackage) {
			notes = append(notes, fmt.Sprintf("the run put the %d differing %s of %s in place; its package manager also runs the package's scripts and installs what it depends on",
				len(c.Objects), plural(len(c.Objects), "path", "paths"), c.Package))
		}
	}
	fix.Note = strings.Join(notes, "; ")
	msg := "with " + causesText(causes) + " put in place as in the good run the command passes here"
	if len(causes) > 1 {
		msg += ", and without any one of them it fails"
	}
	return &ObjectReport{Status: envobj.Located, Message: msg, Causes: rc, Fix: fix}
}

// causes are the report's form of the units.
func (s *objSearch) causes(units []*objUnit) []ObjectCause {
	out := make([]ObjectCause, 0, len(units))
	for _, u := range units {
		out = append(out, s.cause(u))
	}
	return out
}

// cause is the report's form of one unit: what it is, what differs, the
// first call that met it, its fix.
func (s *objSearch) cause(u *objUnit) ObjectCause {
	if u.group == nil {
		it := s.items[u.start[0]]
		sv := envobj.StartValue{Kind: it.Kind, Name: it.Name, Good: it.Good, Here: it.Here, Addresses: it.Addresses, GroupNames: it.GroupNames, Peer: it.Peer}
		return ObjectCause{Kind: envobj.KindStart, Name: sv.Label(), Says: sv.Says(), Start: &sv, Fix: sv.Fix()}
	}
	g := u.group
	c := ObjectCause{Kind: string(g.Kind), Name: g.Name(), Says: g.Says(s.objs), Path: g.Path, Package: g.Package, Fix: g.Fix(s.objs)}
	for _, i := range g.Objects {
		o := s.objs[i]
		c.Objects = append(c.Objects, o)
		if o.FirstSeq != 0 && (c.FirstSeq == 0 || o.FirstSeq < c.FirstSeq) {
			c.FirstSeq = o.FirstSeq
		}
	}
	if c.Fix == nil {
		c.Fix = []envobj.FixStep{}
	}
	return c
}

// plural is one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
