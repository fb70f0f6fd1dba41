package replay

import (
	"fmt"
	"strconv"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/trace"
)

// Capability sets and no_new_privs as start items of a command started
// with an exec spec. A run gives the command the good run's capability
// sets when every capability the good run had (in any of its recorded
// sets: bounding, inheritable, ambient, permitted, effective) is within
// envbisect's own bounding set: the helper, which starts with
// envbisect's capabilities, can keep those and drop the rest. A run that
// replays a caps item then starts the command with the recorded set in
// the exec spec instead of the container's (becomeTarget applies it), and
// the kernel computes the command's permitted and effective sets at the
// exec from them, as it did in the good run. Otherwise the item stays
// listed as differing here and not applied.
//
// no_new_privs can be set and never unset: a good run that had it set
// can be replayed where the spec leaves it unset; the other way round is
// listed.

// specReplay decides which differing start items a run with an exec
// spec can replay.
type specReplay struct {
	// capsWithin: the good run's capabilities are all within envbisect's
	// own bounding set (capsWithin).
	capsWithin bool
}

// replayable reports whether a run can give the command the good value
// of the differing item d (A recorded, B here).
func (s specReplay) replayable(d align.StartDiff) bool {
	switch d.Kind {
	case trace.StartCaps:
		return s.capsWithin && d.A != nil
	case trace.StartNoNewPrivs:
		return d.A != nil && d.A.Value == "1" && (d.B == nil || d.B.Value == "0")
	}
	return startKinds[d.Kind] || d.Kind == trace.StartCreds
}

// capsWithin reports whether every capability in the recorded capability
// sets among start is within own (a bounding set); false when none was
// recorded or one cannot be read.
func capsWithin(start []trace.StartEvent, own uint64) bool {
	var had uint64
	seen := false
	for _, e := range start {
		if e.Kind != trace.StartCaps {
			continue
		}
		v, err := strconv.ParseUint(e.Value, 16, 64)
		if err != nil {
			return false
		}
		had |= v
		seen = true
	}
	return seen && had&^own == 0
}

// capsStart is what replaying caps and no_new_privs start items sets in
// the exec spec: nil sets are left as the spec has them.
type capsStart struct {
	bounding, inheritable, ambient *uint64
	noNewPrivs                     bool
}

// add takes the recorded value of a caps item (a set, hex) or of
// no_new_privs ("1").
func (c *capsStart) add(kind trace.StartKind, name, value string) error {
	if kind == trace.StartNoNewPrivs {
		c.noNewPrivs = value == "1"
		return nil
	}
	v, err := strconv.ParseUint(value, 16, 64)
	if err != nil {
		return fmt.Errorf("start item caps %s %q: %w", name, value, err)
	}
	switch name {
	case trace.CapSetBounding:
		c.bounding = &v
	case trace.CapSetInheritable:
		c.inheritable = &v
	case trace.CapSetAmbient:
		c.ambient = &v
	default:
		return fmt.Errorf("start item caps %s cannot be replayed", name)
	}
	return nil
}

// any reports whether c changes anything.
func (c *capsStart) any() bool {
	return c.bounding != nil || c.inheritable != nil || c.ambient != nil || c.noNewPrivs
}

// applyTo sets the replayed sets in spec. The kernel's rules hold the
// sets together (capabilities(7)): an inheritable capability needs the
// bounding set, an ambient one the inheritable and permitted sets. So the
// inheritable set is kept within the bounding set (a replayed bounding
// set, or the spec's), and a replayed ambient set adds its capabilities
// to the inheritable and permitted sets the helper sets before the exec;
// the bounding set only ever changes by its own item.
func (c *capsStart) applyTo(spec *trace.ExecSpec) {
	caps := &spec.Caps
	if c.bounding != nil {
		caps.Bounding = *c.bounding
	}
	if c.inheritable != nil {
		caps.Inheritable = *c.inheritable
	}
	if c.ambient != nil {
		caps.Ambient = *c.ambient
		caps.Inheritable |= caps.Ambient
		caps.Permitted |= caps.Ambient
	}
	if c.bounding != nil || c.inheritable != nil || c.ambient != nil {
		caps.Inheritable &= caps.Bounding
		caps.Ambient &= caps.Inheritable
	}
	if c.noNewPrivs {
		spec.NoNewPrivs = true
	}
}
