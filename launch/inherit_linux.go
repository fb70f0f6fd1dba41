package launch

import (
	"os"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// The start items a run can set before the command starts (replay of
// start events): environment variables, the umask, resource limits and
// signal dispositions (signals_linux.go).
// The command inherits the rest from envbisect as it is.

// InheritedStart returns the start events a command started now with env
// would begin with, of the kinds a run can set: its environment, and the
// umask, limits and signal dispositions it inherits from envbisect (the
// signals as envbisect's caller gave them, CallerSignals). They are recorded the way
// record records them, so that they compare with a trace's. The
// open-files limit is the one the command inherits, not envbisect's own
// (which the Go runtime raised: nofile_linux.go); when that cannot be
// read, envbisect's own.
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
	for i, name := range trace.RlimitNames() {
		var rl unix.Rlimit
		err := unix.Prlimit(0, i, nil, &rl)
		if i == unix.RLIMIT_NOFILE {
			if own, perr := commandNofile(); perr == nil {
				rl, err = own, nil
			}
		}
		if err == nil {
			ev = append(ev, trace.StartEvent{Kind: trace.StartRlimit, Name: name,
				Value: trace.LimitValue(rl.Cur) + " " + trace.LimitValue(rl.Max)})
		}
	}
	return append(ev, CallerSignals().Events()...)
}
