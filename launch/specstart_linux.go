package launch

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// SpecStart is InheritedStart for a command started with an exec spec
// (Join.Exec): the environment env and our umask, and what the spec
// gives the command instead of what envbisect has: its resource limits,
// its ids and groups (as /proc/PID/status shows them), and the
// capability sets and no_new_privs the command keeps whatever it execs
// (bounding, inheritable, ambient). spec nil is InheritedStart.
func SpecStart(env []string, spec *trace.ExecSpec) []trace.StartEvent {
	inherited := InheritedStart(env)
	if spec == nil {
		return inherited
	}
	var ev []trace.StartEvent
	for _, e := range inherited {
		if e.Kind != trace.StartRlimit {
			ev = append(ev, e)
		}
	}
	names := trace.RlimitNames()
	for _, l := range spec.Rlimits {
		if l.Resource >= 0 && l.Resource < len(names) {
			ev = append(ev, trace.StartEvent{Kind: trace.StartRlimit, Name: names[l.Resource], Value: trace.LimitValue(l.Cur) + " " + trace.LimitValue(l.Max)})
		}
	}
	four := func(id uint32) string {
		s := strconv.FormatUint(uint64(id), 10)
		return strings.Join([]string{s, s, s, s}, " ")
	}
	groups := make([]string, len(spec.Groups))
	for i, g := range spec.Groups {
		groups[i] = strconv.FormatUint(uint64(g), 10)
	}
	nnp := "0"
	if spec.NoNewPrivs {
		nnp = "1"
	}
	return append(ev,
		trace.StartEvent{Kind: trace.StartCreds, Name: "uid", Value: four(spec.UID)},
		trace.StartEvent{Kind: trace.StartCreds, Name: "gid", Value: four(spec.GID)},
		trace.StartEvent{Kind: trace.StartCreds, Name: "groups", Value: strings.Join(groups, " ")},
		trace.StartEvent{Kind: trace.StartCaps, Name: trace.CapSetBounding, Value: fmt.Sprintf("%016x", spec.Caps.Bounding)},
		trace.StartEvent{Kind: trace.StartCaps, Name: trace.CapSetInheritable, Value: fmt.Sprintf("%016x", spec.Caps.Inheritable)},
		trace.StartEvent{Kind: trace.StartCaps, Name: trace.CapSetAmbient, Value: fmt.Sprintf("%016x", spec.Caps.Ambient)},
		trace.StartEvent{Kind: trace.StartNoNewPrivs, Value: nnp},
	)
}
