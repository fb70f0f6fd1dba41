package trace

import (
	"strconv"
	"strings"
)

// The descriptors the command started with. envbisect passes the
// command fds 0, 1 and 2 only, as docker exec does, whatever it inherited
// itself, and the descriptors given to --keep-fds on purpose, at the same
// numbers. The recording notes each of them, so that show and diff say
// which the command had and what they were.

// StartFD: Name the descriptor's number ("0", "251"), Value what it is,
// as /proc/PID/fd shows it just before the command starts ("/dev/null",
// "/dev/pts/0", "pipe:[123]"). Traces written before this event existed
// have none. A run cannot give the command the recording's objects (a
// pipe's inode differs between any two runs), so locate never makes
// these items candidates; diff compares their kinds (FDObjectKind).
const StartFD StartKind = "fd"

// FDObjectKind returns what a StartFD value names without what differs
// between any two runs: "pipe" for "pipe:[123]", "socket" for
// "socket:[456]", "anon_inode:[eventfd]" as it is; a path as it is.
func FDObjectKind(value string) string {
	kind, rest, ok := strings.Cut(value, ":[")
	if !ok || strings.HasPrefix(value, "/") {
		return value
	}
	if n, found := strings.CutSuffix(rest, "]"); found {
		if _, err := strconv.ParseUint(n, 10, 64); err == nil {
			return kind
		}
	}
	return value
}

// StartFDs returns the numbers of the descriptors the start events
// start say the command had, in their order; nil for a trace without
// StartFD events.
func StartFDs(start []StartEvent) []int {
	var out []int
	for _, e := range start {
		if e.Kind != StartFD {
			continue
		}
		if n, err := strconv.Atoi(e.Name); err == nil {
			out = append(out, n)
		}
	}
	return out
}
