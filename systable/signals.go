package systable

import (
	"strconv"

	"github.com/envbisect/envbisect/systable/internal/amd64"
)

// sigRTMin and sigRTMax bound the real-time signals as the kernel numbers
// them (asm/signal.h); libc reserves the first few for itself.
const (
	sigRTMin = 32
	sigRTMax = 64
)

// signalNames are the standard signals by number; aliases (SIGIOT,
// SIGPOLL, SIGCLD) are left out so each number has one name.
var signalNames = [...]string{
	amd64.SIGHUP:    "SIGHUP",
	amd64.SIGINT:    "SIGINT",
	amd64.SIGQUIT:   "SIGQUIT",
	amd64.SIGILL:    "SIGILL",
	amd64.SIGTRAP:   "SIGTRAP",
	amd64.SIGABRT:   "SIGABRT",
	amd64.SIGBUS:    "SIGBUS",
	amd64.SIGFPE:    "SIGFPE",
	amd64.SIGKILL:   "SIGKILL",
	amd64.SIGUSR1:   "SIGUSR1",
	amd64.SIGSEGV:   "SIGSEGV",
	amd64.SIGUSR2:   "SIGUSR2",
	amd64.SIGPIPE:   "SIGPIPE",
	amd64.SIGALRM:   "SIGALRM",
	amd64.SIGTERM:   "SIGTERM",
	amd64.SIGSTKFLT: "SIGSTKFLT",
	amd64.SIGCHLD:   "SIGCHLD",
	amd64.SIGCONT:   "SIGCONT",
	amd64.SIGSTOP:   "SIGSTOP",
	amd64.SIGTSTP:   "SIGTSTP",
	amd64.SIGTTIN:   "SIGTTIN",
	amd64.SIGTTOU:   "SIGTTOU",
	amd64.SIGURG:    "SIGURG",
	amd64.SIGXCPU:   "SIGXCPU",
	amd64.SIGXFSZ:   "SIGXFSZ",
	amd64.SIGVTALRM: "SIGVTALRM",
	amd64.SIGPROF:   "SIGPROF",
	amd64.SIGWINCH:  "SIGWINCH",
	amd64.SIGIO:     "SIGIO",
	amd64.SIGPWR:    "SIGPWR",
	amd64.SIGSYS:    "SIGSYS",
}

// SignalName returns the name of signal n as strace prints it: "SIGTERM",
// "SIGRTMIN", "SIGRTMIN+3", "SIGRTMAX"; 0 (the existence check of kill)
// and numbers no signal has print as decimal.
func SignalName(n int) string {
	switch {
	case n > 0 && n < len(signalNames) && signalNames[n] != "":
		return signalNames[n]
	case n == sigRTMin:
		return "SIGRTMIN"
	case n == sigRTMax:
		return "SIGRTMAX"
	case n > sigRTMin && n < sigRTMax:
		return "SIGRTMIN+" + strconv.Itoa(n-sigRTMin)
	}
	return strconv.Itoa(n)
}

// signalValues lists every signal number with its name, as the enum of
// the exit signal in clone's flags (CSIGNAL).
func signalValues() []FlagValue {
	out := make([]FlagValue, 0, sigRTMax)
	for n := 1; n <= sigRTMax; n++ {
		if name := SignalName(n); name != strconv.Itoa(n) {
			out = append(out, FlagValue{Name: name, Value: uint64(n)})
		}
	}
	return out
}
