package launch

import (
	"slices"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// A plain run (no container, no exec spec) starts the command with
// envbisect's own identity, or with Config.Identity: envbisect's own with
// some recorded items in place of its values (the good run's groups, a
// smaller bounding set, no_new_privs). The helper sets it before the
// exec as it sets a container's (becomeTarget), so it can only set what
// envbisect itself may: it holds no more than its own process does after
// an exec of envbisect's binary (CapsAfterExec of SelfSpec), and
// changing the groups or ids or dropping from the bounding set needs a
// capability for that (setgroups(2), setresuid(2), PR_CAPBSET_DROP).
// Bound.Grants says what an identity holds beyond envbisect's;
// PlainReach what envbisect cannot do to give it.

// PlainReach returns what envbisect, running with identity self, could
// not do to start a command with identity want, one phrase each ("set
// the supplementary groups: setgroups needs CAP_SETGID, which envbisect
// does not hold"); nil when it can. Raising capabilities is
// Bound.Grants's to refuse.
func PlainReach(self, want trace.ExecSpec) []string {
	holds := CapsAfterExec(self)
	var out []string
	need := func(what string, capBit int) {
		if holds&(1<<capBit) == 0 {
			out = append(out, what+" needs "+trace.CapabilityName(capBit)+", which envbisect does not hold")
		}
	}
	if want.GID != self.GID || !sameGroups(want.Groups, self.Groups) {
		need("setting the group ids and supplementary groups", capSetGID)
	}
	if want.UID != self.UID {
		need("setting the user id", capSetUID)
	}
	if self.Caps.Bounding&^want.Caps.Bounding != 0 {
		need("dropping "+strings.Join(trace.CapabilityNames(self.Caps.Bounding&^want.Caps.Bounding), ", ")+" from the bounding set", capSetPCap)
	}
	return out
}

// Capability numbers (linux/capability.h) PlainReach names.
const (
	capSetGID  = 6
	capSetUID  = 7
	capSetPCap = 8
)

// sameGroups reports whether a and b hold the same groups, in any order.
func sameGroups(a, b []uint32) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// plainExec is the exec spec the helper applies for a plain run's
// identity: the identity as it is, with no_new_privs set when the
// tracer's own seccomp filter needs it (tracedNoPrivs: envbisect is not
// root, and installs its filter under no_new_privs in every traced run).
func plainExec(id trace.ExecSpec, tracedNoPrivs bool) *trace.ExecSpec {
	id.Seccomp, id.LSMLabel, id.Rlimits = nil, "", nil
	if tracedNoPrivs {
		id.NoNewPrivs = true
	}
	return &id
}
