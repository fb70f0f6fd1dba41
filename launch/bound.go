package launch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// A run's identity never exceeds what its environment grants, whatever a
// trace asks for: a trace is data. The environment's own identity is the
// Bound: in a container (--container, --pid with an exec spec), the
// process spec docker exec would give the command there; in a plain run,
// the identity envbisect itself runs with, which its command inherits.
// A run may give the command a recorded identity item (ids, groups, a
// capability set, no_new_privs, a resource limit) only when the result
// holds nothing the Bound does not (Grants); replay decides which items
// a run applies from it, and Start refuses a spec beyond it.
//
// What counts as holding more:
//   - uid 0, gid 0 or supplementary group 0 where the environment's
//     identity has none of them (root's files and root's group's);
//     another unprivileged id is no privilege and may be taken;
//   - a capability in the bounding set the environment's lacks (a
//     set-user-ID or file-capability program could gain it);
//   - a capability the command holds after its exec (capabilities(7):
//     root's permitted set is its bounding and inheritable sets, anyone
//     else's its ambient set) that the environment's command does not;
//   - an inheritable or ambient capability the environment's command
//     could not set itself (outside its own sets and what it holds);
//   - no_new_privs unset where the environment sets it;
//   - a hard resource limit above the environment's, unless the
//     environment's command holds CAP_SYS_RESOURCE (LimitReach).

// Bound is the most a run's command may hold.
type Bound struct {
	// Spec is the environment's own identity: the exec spec of a
	// container, or envbisect's own (SelfSpec). Its Rlimits are the
	// limits the command starts with there.
	Spec trace.ExecSpec
	// Where names the environment in messages: "the container bad
	// (0844870a481a)", "envbisect's own user (uid 1000)".
	Where string
	// Container: the Bound is a container's exec spec, so its remedies
	// are docker run's flags.
	Container bool
	// RaiseLimits: the environment's command may raise a hard resource
	// limit (it holds CAP_SYS_RESOURCE), so a run may too.
	RaiseLimits bool
}

// BoundFor returns the Bound of runs started through join: its exec
// spec's identity, or, with none (a plain run, or --pid without a
// spec), envbisect's own.
func BoundFor(join *trace.Join) Bound {
	if join != nil && join.Exec != nil {
		spec := *join.Exec
		return Bound{Spec: spec, Where: join.Describe(), Container: true,
			RaiseLimits: CapsAfterExec(spec)&(1<<capSysResource) != 0}
	}
	return SelfBound()
}

// CapsAfterExec returns the capabilities a command started with spec's
// identity holds after its exec of a program with no file capabilities
// and no set-user-ID bit (capabilities(7)): root's permitted and
// effective sets are its bounding, inheritable and ambient sets (a
// root program's file sets are full), anyone else's its ambient set.
func CapsAfterExec(spec trace.ExecSpec) uint64 {
	if spec.UID == 0 {
		return spec.Caps.Bounding | spec.Caps.Inheritable&spec.Caps.Bounding | spec.Caps.Ambient
	}
	return spec.Caps.Ambient
}

// Grants returns what a command started with want would hold beyond
// the Bound, one phrase each ("uid 0 (root)", "CAP_SYS_ADMIN in the
// bounding set"); nil when want is within it. Resource limits are not
// compared here: LimitReach says how far a run may set each.
func (b Bound) Grants(want trace.ExecSpec) []string {
	env := b.Spec
	var out []string
	if want.UID == 0 && env.UID != 0 {
		out = append(out, "uid 0 (root)")
	}
	rootGroup := env.GID == 0 || slices.Contains(env.Groups, 0)
	if !rootGroup && (want.GID == 0 || slices.Contains(want.Groups, 0)) {
		out = append(out, "group 0 (root)")
	}
	holds := CapsAfterExec(env)
	add := func(set uint64, where string) {
		if set == 0 {
			return
		}
		out = append(out, strings.Join(trace.CapabilityNames(set), ", ")+" "+where)
	}
	add(want.Caps.Bounding&^env.Caps.Bounding, "in the bounding set")
	add(CapsAfterExec(want)&^holds&^(want.Caps.Bounding&^env.Caps.Bounding), "held after the exec")
	add(want.Caps.Inheritable&^(env.Caps.Inheritable|holds), "in the inheritable set")
	add(want.Caps.Ambient&^(env.Caps.Ambient|holds), "in the ambient set")
	if env.NoNewPrivs && !want.NoNewPrivs {
		out = append(out, "no_new_privs unset")
	}
	return out
}

// GrantsError is the error of a run asked to start a command with more
// than its environment grants.
type GrantsError struct {
	Where  string
	Grants []string
}

func (e *GrantsError) Error() string {
	return fmt.Sprintf("refusing to start the command with more than %s grants: %s (a trace cannot raise a run's privileges)",
		e.Where, strings.Join(e.Grants, "; "))
}

// withinBound returns a GrantsError when cfg would start the command with
// more than cfg.Bound: an exec spec holding more, or a hard resource limit
// above the environment's where it may not raise one.
func (cfg *Config) withinBound() error {
	b := cfg.Bound
	if b == nil {
		return nil
	}
	var grants []string
	if cfg.Join != nil && cfg.Join.Exec != nil {
		grants = b.Grants(*cfg.Join.Exec)
	} else if cfg.Identity != nil {
		grants = append(b.Grants(*cfg.Identity), PlainReach(b.Spec, *cfg.Identity)...)
	}
	if !b.RaiseLimits && b.Container {
		for _, l := range cfg.Limits {
			for _, own := range b.Spec.Rlimits {
				if own.Resource == l.Resource && l.Max > own.Max {
					grants = append(grants, fmt.Sprintf("a hard %s of %s (the environment's: %s)",
						trace.RlimitName(l.Resource), trace.LimitValue(l.Max), trace.LimitValue(own.Max)))
				}
			}
		}
	}
	if len(grants) > 0 {
		return &GrantsError{Where: b.Where, Grants: grants}
	}
	return nil
}
