package trace

import "time"

// Watch bounds a run in time and judges a command that does not exit by
// itself (a daemon). The zero Watch waits until every traced process has
// exited. The launcher enforces it; verdict reads what it saw in a
// RunResult.
type Watch struct {
	// Alive: the command must still be running this long after it
	// started (a daemon that came up). Then Check, if any, runs against
	// it, and every traced process is stopped. The command counts as
	// running while any traced process is.
	Alive time.Duration
	// Check is a command (argv) run while the command is alive, after
	// Alive; its exit status is RunResult.CheckStatus. It is not traced.
	Check []string
	// Timeout stops every traced process once the run has lasted this
	// long (RunResult.TimedOut).
	Timeout time.Duration
	// EndWithRoot stops every traced process still running when the
	// command's own process exits: background children a script left
	// behind. Without it the run lasts until the last one exits.
	EndWithRoot bool
}

// RunResult sums up a recorded or semi-replayed run, whichever backend
// ran it.
type RunResult struct {
	ExitCode int // as a shell reports it: status, or 128+signal
	Signal   int // the signal that killed the command, or 0
	Backend  string
	Filtered []string // calls that never stopped and are not in the trace
	Calls    uint64
	Procs    uint32
	Threads  uint32
	Stops    uint64
	// Interrupted is set when envbisect passed on a signal it received.
	Interrupted bool
	// TimedOut: Watch.Timeout stopped the run.
	TimedOut bool
	// AliveAt: with Watch.Alive, the command was still running at the
	// deadline (and was then stopped).
	AliveAt bool
	// CheckStatus is Watch.Check's exit status as a shell reports it, or
	// -1 when it did not run.
	CheckStatus int
	// CheckOutput is what the check printed (stdout and stderr), at most
	// a few KiB.
	CheckOutput string
	// LeftRunning lists the executables of the processes still running
	// when the command's own process exited, which Watch.EndWithRoot
	// ended with it.
	LeftRunning []string
	// AddrRedirects are the binds a semi-replay run moved to a free address
	// because theirs is taken here, in the order they happened.
	AddrRedirects []AddrRedirect
}
