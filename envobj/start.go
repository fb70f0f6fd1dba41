package envobj

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// StartValue is a start item that differs here (an environment variable,
// the umask, a resource limit, the working directory: what the command
// starts with rather than finds), as the object search's report names
// it. Kind is the start event's kind ("env", "umask", "rlimit"), Name the
// variable or limit; Good and Here are the values, nil where unset.
type StartValue struct {
	Kind string  `json:"kind"`
	Name string  `json:"name,omitempty"`
	Good *string `json:"good"`
	Here *string `json:"here"`
	// Addresses are, for a KindAddress item, the addresses it frees
	// (Name names them, Here their holders).
	Addresses []Address `json:"addresses,omitempty"`
	// GroupNames are, for a groups item, the names of its groups as the
	// group database where the command runs has them, by id ("44":
	// "video"): the report names each group by both (startgroups.go).
	GroupNames map[string]string `json:"group_names,omitempty"`
	// Peer is, for a KindPeer item, the peer (without its conversation).
	Peer *Peer `json:"peer,omitempty"`
}

// Label names the item: "env TZ", "umask".
func (s StartValue) Label() string {
	if s.Name == "" {
		return s.Kind
	}
	return s.Kind + " " + s.Name
}

// Says is how the item differs: `env TZ is "Europe/Paris" here, "UTC" in
// the good run`, `env LANG is not set here, "C.UTF-8" in the good run`;
// for held addresses, each address's Says.
func (s StartValue) Says() string {
	if s.Kind == KindAddress && len(s.Addresses) > 0 {
		says := make([]string, len(s.Addresses))
		for i, a := range s.Addresses {
			says[i] = a.Says()
		}
		return strings.Join(says, "; ")
	}
	if s.Kind == KindPeer && s.Peer != nil {
		return s.Peer.Says()
	}
	if trace.StartKind(s.Kind) == trace.StartSignal {
		return SignalSays(s.Name, s.Good, s.Here)
	}
	if s.Kind == KindKernel {
		return s.kernelSays()
	}
	if w := s.capsWords(); w != "" {
		return w
	}
	if w := s.groupsSays(); w != "" {
		return w
	}
	return fmt.Sprintf("%s is %s here, %s in the good run", s.Label(), startWords(s.Here), startWords(s.Good))
}

// capsWords says a capability set that differs by its capabilities'
// names, never its hex value: "CAP_CHOWN: in the good run's bounding
// set, not here", "CAP_SYS_ADMIN: in the bounding set here, not in the
// good run's"; "" for another kind or a value that is not a set.
func (s StartValue) capsWords() string {
	if trace.StartKind(s.Kind) != trace.StartCaps || s.Good == nil || s.Here == nil {
		return ""
	}
	g, err1 := strconv.ParseUint(*s.Good, 16, 64)
	h, err2 := strconv.ParseUint(*s.Here, 16, 64)
	if err1 != nil || err2 != nil {
		return ""
	}
	var parts []string
	if lost := trace.CapabilityNames(g &^ h); len(lost) > 0 {
		parts = append(parts, andWords(lost)+": in the good run's "+s.Name+" set, not here")
	}
	if gained := trace.CapabilityNames(h &^ g); len(gained) > 0 {
		parts = append(parts, andWords(gained)+": in the "+s.Name+" set here, not in the good run's")
	}
	return strings.Join(parts, "; ")
}

func startWords(v *string) string {
	if v == nil {
		return "not set"
	}
	return fmt.Sprintf("%q", *v)
}

// ulimitFlags are the ulimit options of the limits the shell sets.
var ulimitFlags = map[string]string{
	"RLIMIT_CORE": "-c", "RLIMIT_DATA": "-d", "RLIMIT_FSIZE": "-f", "RLIMIT_NOFILE": "-n",
	"RLIMIT_STACK": "-s", "RLIMIT_CPU": "-t", "RLIMIT_AS": "-v", "RLIMIT_NPROC": "-u",
	"RLIMIT_MEMLOCK": "-l", "RLIMIT_LOCKS": "-x", "RLIMIT_SIGPENDING": "-i", "RLIMIT_MSGQUEUE": "-q",
	"RLIMIT_NICE": "-e", "RLIMIT_RTPRIO": "-r", "RLIMIT_RSS": "-m", "RLIMIT_RTTIME": "-R",
}

// Fix returns the commands that start the command with the good value,
// run in the shell that starts it: "export TZ=UTC", "unset LANG", "umask
// 022", "ulimit -n 1024", "cd /src", `trap "" HUP`; for the kinds no shell command sets
// (credentials, capabilities), what to do in words; for held addresses,
// each address's Fix (stop its holder).
func (s StartValue) Fix() []FixStep {
	cmd := func(format string, args ...any) []FixStep { return []FixStep{{Command: fmt.Sprintf(format, args...)}} }
	if s.Kind == KindAddress && len(s.Addresses) > 0 {
		var out []FixStep
		for _, a := range s.Addresses {
			out = append(out, a.Fix()...)
		}
		return out
	}
	if s.Kind == KindPeer && s.Peer != nil {
		return s.Peer.Fix()
	}
	if trace.StartKind(s.Kind) == trace.StartSignal {
		return signalFix(s.Name, s.Good, s.Here)
	}
	if s.Kind == KindKernel {
		return s.kernelFix()
	}
	if steps := s.groupsFix(); steps != nil {
		return steps
	}
	if s.Good == nil {
		if trace.StartKind(s.Kind) == trace.StartEnv {
			return cmd("unset %s", shellQuote(s.Name))
		}
		return []FixStep{{Text: fmt.Sprintf("start the command without %s, as in the good run", s.Label())}}
	}
	good := *s.Good
	switch trace.StartKind(s.Kind) {
	case trace.StartEnv:
		return cmd("export %s=%s", s.Name, shellQuote(good))
	case trace.StartUmask:
		return cmd("umask %s", good)
	case trace.StartCwd:
		return cmd("cd %s", shellQuote(good))
	case trace.StartHostname:
		// In a container: docker run --hostname NAME gives it too.
		return cmd("hostname %s", shellQuote(good))
	case trace.StartRlimit:
		if flag, ok := ulimitFlags[s.Name]; ok {
			f := strings.Fields(good)
			if len(f) == 2 && f[0] == f[1] {
				return cmd("ulimit %s %s", flag, f[0])
			}
			if len(f) == 2 {
				return []FixStep{{Command: fmt.Sprintf("ulimit -H %s %s", flag, f[1])}, {Command: fmt.Sprintf("ulimit -S %s %s", flag, f[0])}}
			}
		}
	}
	if w := s.capsWords(); w != "" {
		return []FixStep{{Text: fmt.Sprintf("start the command with the good run's %s set (%s)", s.Name, w)}}
	}
	return []FixStep{{Text: fmt.Sprintf("start the command with %s %s, as in the good run", s.Label(), startWords(s.Good))}}
}

// andWords is "a", "a and b", "a, b and c".
func andWords(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
