package envobj

import (
	"fmt"

	"github.com/envbisect/envbisect/trace"
)

// Signal items (trace.StartSignal): a signal the command starts with
// ignored or blocked in one run and not in the other. The report names
// the signal and its disposition on each side, and the fix says it in a
// shell's words: `trap '' HUP` ignores SIGHUP for every command the shell
// starts after it (nohup does it for one command); coreutils' env
// (8.31 and later) resets or blocks a signal for one command. A signal
// ignored when a non-interactive shell started cannot be trapped or reset
// in that shell, and no shell builtin blocks or unblocks a signal.

// SignalSays is how a signal item differs: "signal SIGHUP: ignored in
// the good run, default here".
func SignalSays(name string, good, here *string) string {
	return fmt.Sprintf("signal %s: %s in the good run, %s here", name, trace.SignalWords(good), trace.SignalWords(here))
}

// signalFix returns the steps that start the command with signal name's
// good disposition.
func signalFix(name string, good, here *string) []FixStep {
	sh := trace.ShellSignal(name)
	var out []FixStep
	switch goodIgn, hereIgn := trace.HasWord(good, trace.SignalIgnored), trace.HasWord(here, trace.SignalIgnored); {
	case goodIgn && !hereIgn:
		out = append(out, FixStep{Command: fmt.Sprintf("trap '' %s", sh)})
		if name == "SIGHUP" {
			out = append(out, FixStep{Text: "or start the command with nohup, which ignores SIGHUP"})
		}
	case !goodIgn && hereIgn:
		out = append(out, FixStep{Text: fmt.Sprintf("start the command with %s at its default action: env --default-signal=%s COMMAND "+
			"(here whatever started the shell ignores it, as nohup does, and a shell cannot trap or reset a signal ignored when it started)", name, sh)})
	}
	switch goodBlk, hereBlk := trace.HasWord(good, trace.SignalBlocked), trace.HasWord(here, trace.SignalBlocked); {
	case goodBlk && !hereBlk:
		out = append(out, FixStep{Text: fmt.Sprintf("start the command with %s blocked, as the process that started the good run did "+
			"(no shell builtin blocks a signal): env --block-signal=%s COMMAND", name, sh)})
	case !goodBlk && hereBlk:
		out = append(out, FixStep{Text: fmt.Sprintf("start the command from a process that does not block %s: here the process that starts it "+
			"blocks it (SigBlk in /proc/$$/status), and no shell builtin unblocks a signal", name)})
	}
	return out
}
