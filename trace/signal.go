package trace

import (
	"strconv"
	"strings"
)

// Signal dispositions a command inherits: the signals it starts with
// ignored (SIG_IGN: nohup ignores SIGHUP, `trap '' PIPE` SIGPIPE) or
// blocked (its signal mask). An exec keeps both, so a program behaves
// otherwise under nohup than without it (a shell cannot trap a signal
// ignored when it started; a write to a closed pipe fails with EPIPE
// instead of killing the writer). Each signal ignored or blocked is a
// StartSignal event, named by the signal ("SIGHUP"), its value
// SignalIgnored, SignalBlocked or both, space-separated; a signal with
// no event has its default action and is not blocked.

// The words of a StartSignal event's value.
const (
	SignalIgnored = "ignored"
	SignalBlocked = "blocked"
)

// SignalSets are the signals a command starts with ignored and blocked,
// as bit sets: bit N-1 for signal N (as /proc/PID/status's SigIgn and
// SigBlk print them).
type SignalSets struct {
	Ignored uint64 `json:"ignored"`
	Blocked uint64 `json:"blocked"`
}

// signalNames are the names of signals 1 to 31 on x86-64, as
// signal(7) spells them.
var signalNames = [...]string{
	"SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE",
	"SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT",
	"SIGCHLD", "SIGCONT", "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU",
	"SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR", "SIGSYS",
}

// sigRTMin is the first real-time signal a program can use (glibc keeps
// 32 and 33 for itself).
const sigRTMin = 34

// SignalName names signal n: "SIGHUP", "SIGRTMIN+2" for a real-time one.
func SignalName(n int) string {
	switch {
	case n >= 1 && n <= len(signalNames):
		return signalNames[n-1]
	case n >= sigRTMin && n <= 64:
		if n == sigRTMin {
			return "SIGRTMIN"
		}
		return "SIGRTMIN+" + strconv.Itoa(n-sigRTMin)
	}
	return "SIG" + strconv.Itoa(n)
}

// SignalNumber is the number of the signal SignalName calls name; false
// for a name it never gives.
func SignalNumber(name string) (int, bool) {
	for n := 1; n <= 64; n++ {
		if SignalName(n) == name {
			return n, true
		}
	}
	return 0, false
}

// ShellSignal is a signal's name as the shell's trap takes it: "HUP".
func ShellSignal(name string) string { return strings.TrimPrefix(name, "SIG") }

// SignalSettable reports whether a process can ignore or block signal
// n, as a run sets it: not SIGKILL and SIGSTOP (the kernel refuses),
// nor 32 and 33 (glibc's own, which its sigaction refuses too).
func SignalSettable(n int) bool {
	return n >= 1 && n <= 64 && n != 9 && n != 19 && n != 32 && n != 33
}

// Events returns the StartSignal events of s, in signal order: one per
// settable signal ignored or blocked.
func (s SignalSets) Events() []StartEvent {
	var out []StartEvent
	for n := 1; n <= 64; n++ {
		bit := uint64(1) << (n - 1)
		if !SignalSettable(n) || (s.Ignored|s.Blocked)&bit == 0 {
			continue
		}
		var words []string
		if s.Ignored&bit != 0 {
			words = append(words, SignalIgnored)
		}
		if s.Blocked&bit != 0 {
			words = append(words, SignalBlocked)
		}
		out = append(out, StartEvent{Kind: StartSignal, Name: SignalName(n), Value: strings.Join(words, " ")})
	}
	return out
}

// Set makes signal name's disposition the one value says (a
// StartSignal event's value; nil: default, not blocked). An unknown
// name changes nothing and returns false.
func (s *SignalSets) Set(name string, value *string) bool {
	n, ok := SignalNumber(name)
	if !ok || !SignalSettable(n) {
		return false
	}
	bit := uint64(1) << (n - 1)
	s.Ignored &^= bit
	s.Blocked &^= bit
	if value == nil {
		return true
	}
	for _, w := range strings.Fields(*value) {
		switch w {
		case SignalIgnored:
			s.Ignored |= bit
		case SignalBlocked:
			s.Blocked |= bit
		}
	}
	return true
}

// SignalWords says a StartSignal event's value in words: "ignored",
// "blocked", "ignored and blocked"; nil (no event) is "default".
func SignalWords(value *string) string {
	if value == nil || strings.TrimSpace(*value) == "" {
		return "default"
	}
	return strings.Join(strings.Fields(*value), " and ")
}

// HasWord reports whether a StartSignal event's value (nil: none) holds
// word (SignalIgnored, SignalBlocked).
func HasWord(value *string, word string) bool {
	if value == nil {
		return false
	}
	for _, w := range strings.Fields(*value) {
		if w == word {
			return true
		}
	}
	return false
}
