package replay

import (
	"fmt"
	"strconv"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/trace"
)

// Capability sets, ids and no_new_privs as start items of a command
// started with an exec spec. A run gives the command the good run's
// value of such an item only when that grants nothing the environment's
// own spec does not (launch.Bound.Grants: no capability outside the
// container's sets, no root id the container does not give, no
// no_new_privs unset): a trace recorded as root on a host, or a crafted
// one, cannot raise a container's privileges. A run that replays a caps
// item starts the command with the recorded set in the exec spec instead
// of the container's (becomeTarget applies it), and the kernel computes
// the command's permitted and effective sets at the exec from them, as
// it did in the good run. Otherwise the item stays listed as differing
// here and not applied, with what it would grant (ItemGrants).

// specReplay decides which differing start items a run with an exec
// spec can replay.
type specReplay struct {
	// bound is the environment's own identity: the container's spec.
	bound launch.Bound
}

// replayable reports whether a run can give the command the good value
// of the differing item d (A recorded, B here).
func (s specReplay) replayable(d align.StartDiff) bool {
	switch d.Kind {
	case trace.StartCaps, trace.StartCreds:
		return d.A != nil && len(ItemGrants(d.Kind, d.Name, d.A.Value, s.bound)) == 0
	case trace.StartNoNewPrivs:
		return d.A != nil && d.A.Value == "1" && (d.B == nil || d.B.Value == "0")
	}
	return startKinds[d.Kind]
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
