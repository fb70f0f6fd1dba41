package systable

import (
	"strconv"

	"golang.org/x/sys/unix"
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
	unix.SIGHUP:    "SIGHUP",
	unix.SIGINT:    "SIGINT",
	unix.SIGQUIT:   "SIGQUIT",
	unix.SIGILL:    "SIGILL",
	unix.SIGTRAP:   "SIGTRAP",
	unix.SIGABRT:   "SIGABRT",
	unix.SIGBUS:    "SIGBUS",
	unix.SIGFPE:    "SIGFPE",
	unix.SIGKILL:   "SIGKILL",
	unix.SIGUSR1:   "SIGUSR1",
	unix.SIGSEGV:   "SIGSEGV",
	unix.SIGUSR2:   "SIGUSR2",
	unix.SIGPIPE:   "SIGPIPE",
	unix.SIGALRM:   "SIGALRM",
	unix.SIGTERM:   "SIGTERM",
	unix.SIGSTKFLT: "SIGSTKFLT",
	unix.SIGCHLD:   "SIGCHLD",
	unix.SIGCONT:   "SIGCONT",
	unix.SIGSTOP:   "SIGSTOP",
	unix.SIGTSTP:   "SIGTSTP",
	unix.SIGTTIN:   "SIGTTIN",
	unix.SIGTTOU:   "SIGTTOU",
	unix.SIGURG:    "SIGURG",
	unix.SIGXCPU:   "SIGXCPU",
	unix.SIGXFSZ:   "SIGXFSZ",
	unix.SIGVTALRM: "SIGVTALRM",
	unix.SIGPROF:   "SIGPROF",
	unix.SIGWINCH:  "SIGWINCH",
	unix.SIGIO:     "SIGIO",
	unix.SIGPWR:    "SIGPWR",
	unix.SIGSYS:    "SIGSYS",
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
