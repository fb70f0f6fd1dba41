package launch

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// The start items a run can set before the command starts (replay of
// start events): environment variables, the umask and resource limits.
// The command inherits the rest from envbisect as it is.

// rlimitName names resource i ("RLIMIT_NOFILE"), or "resource i".
func rlimitName(i int) string {
	if names := rlimitNames(); i >= 0 && i < len(names) {
		return names[i]
	}
	return "resource " + strconv.Itoa(i)
}

// InheritedStart returns the start events a command started now with env
// would begin with, of the kinds a run can set: its environment, and the
// umask and limits it inherits from envbisect. They are recorded the way
// record records them, so that they compare with a trace's.
func InheritedStart(env []string) []trace.StartEvent {
	var ev []trace.StartEvent
	for _, kv := range withoutHelperMarker(env) {
		k, v, _ := strings.Cut(kv, "=")
		ev = append(ev, trace.StartEvent{Kind: trace.StartEnv, Name: k, Value: v})
	}
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "Umask:"); ok {
				ev = append(ev, trace.StartEvent{Kind: trace.StartUmask, Value: strings.TrimSpace(v)})
			}
		}
	}
	for i, name := range rlimitNames() {
		var rl unix.Rlimit
		if err := unix.Prlimit(0, i, nil, &rl); err == nil {
			ev = append(ev, trace.StartEvent{Kind: trace.StartRlimit, Name: name,
				Value: limitString(rl.Cur) + " " + limitString(rl.Max)})
		}
	}
	return ev
}

// ParseLimit reads a recorded limit, "RLIMIT_NOFILE" with "1024 4096"
// (or "unlimited").
func ParseLimit(name, value string) (Limit, error) {
	res := -1
	for i, n := range rlimitNames() {
		if n == name {
			res = i
		}
	}
	soft, hard, ok := strings.Cut(value, " ")
	if res < 0 || !ok {
		return Limit{}, fmt.Errorf("limit %s %q: not a limit this envbisect knows", name, value)
	}
	cur, err1 := parseLimitValue(soft)
	max, err2 := parseLimitValue(hard)
	if err1 != nil || err2 != nil {
		return Limit{}, fmt.Errorf("limit %s %q: bad value", name, value)
	}
	return Limit{Resource: res, Cur: cur, Max: max}, nil
}

func parseLimitValue(s string) (uint64, error) {
	if s == "unlimited" {
		return unix.RLIM_INFINITY, nil
	}
	return strconv.ParseUint(s, 10, 64)
}

// ParseUmask reads a recorded umask ("0022").
func ParseUmask(value string) (uint32, error) {
	v, err := strconv.ParseUint(value, 8, 32)
	if err != nil {
		return 0, fmt.Errorf("umask %q: %w", value, err)
	}
	return uint32(v), nil
}
