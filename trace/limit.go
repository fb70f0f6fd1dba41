package trace

import (
	"fmt"
	"strconv"
	"strings"
)

// Limit is a resource limit a command starts with: a start item a run
// can set (replay of a StartRlimit event).
type Limit struct {
	Resource int    `json:"resource"` // RLIMIT_*
	Cur      uint64 `json:"cur"`
	Max      uint64 `json:"max"`
}

// RlimInfinity is RLIM_INFINITY, the value of an unlimited limit.
const RlimInfinity = ^uint64(0)

// RlimitNames returns the resources of getrlimit(2), in number order:
// the names StartRlimit events carry.
func RlimitNames() []string {
	return []string{
		"RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_DATA", "RLIMIT_STACK", "RLIMIT_CORE", "RLIMIT_RSS",
		"RLIMIT_NPROC", "RLIMIT_NOFILE", "RLIMIT_MEMLOCK", "RLIMIT_AS", "RLIMIT_LOCKS",
		"RLIMIT_SIGPENDING", "RLIMIT_MSGQUEUE", "RLIMIT_NICE", "RLIMIT_RTPRIO", "RLIMIT_RTTIME",
	}
}

// RlimitName names resource i ("RLIMIT_NOFILE"), or "resource i".
func RlimitName(i int) string {
	if names := RlimitNames(); i >= 0 && i < len(names) {
		return names[i]
	}
	return "resource " + strconv.Itoa(i)
}

// LimitValue writes a limit as a StartRlimit event's Value holds it:
// "unlimited" or a decimal number.
func LimitValue(v uint64) string {
	if v == RlimInfinity {
		return "unlimited"
	}
	return strconv.FormatUint(v, 10)
}

// ParseLimit reads a recorded limit, "RLIMIT_NOFILE" with "1024 4096"
// (or "unlimited").
func ParseLimit(name, value string) (Limit, error) {
	res := -1
	for i, n := range RlimitNames() {
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
		return RlimInfinity, nil
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
