package tracer

import (
	"os"
	"time"

	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Config says what to run and how to trace it.
type Config struct {
	Path string   // the executable, already looked up in PATH; "" with Join: looked up inside
	Argv []string // argv[0] included
	Env  []string // the target's environment
	Dir  string   // working directory; "" for envbisect's own (with Join: inside, "" is /)

	// Join, when set, runs the command inside another process's
	// namespaces and root (a container), like docker exec.
	Join *Join

	Table *systable.Table
	// NoSeccomp forces the PTRACE_SYSCALL fallback even where seccomp
	// filters work.
	NoSeccomp bool
	ASLR      bool // leave address randomisation on
	// NoVDSO hides the vDSO from every image the command execs, so that
	// time queries become system calls the trace holds.
	NoVDSO     bool
	MaxCapture uint64   // bytes kept per buffer; 0 = all
	Exclude    []string // globs of paths whose contents stay out of the trace

	// CPU pins the tracer thread and the command (and so everything it
	// starts) to one CPU; -1 leaves both free. See DefaultCPU.
	CPU int

	Stdin, Stdout, Stderr *os.File // nil: envbisect's own

	// Sandbox, when set, runs the command in a throwaway view of the file
	// system (package sandbox): the helper enters it before the exec, so
	// nothing the command writes outside Sandbox.Persist survives it.
	Sandbox *sandbox.Spec

	// Umask and Limits, when set, replace the umask and resource limits
	// the command would inherit from envbisect.
	Umask  *uint32
	Limits []Limit

	// Observer receives the start events and every event, in order, on the
	// tracer thread: it must not block for long.
	Observer Observer
	// Replayer, when set, makes the run a semi-replay run: it decides
	// about every call as it enters (see Replayer). nil records.
	Replayer Replayer
	// Watch says when the run ends and what is checked while it runs.
	Watch Watch

	// Interrupt delivers signals envbisect received: the first is passed
	// on to the command, a second kills every traced process.
	Interrupt <-chan os.Signal
	// Warn reports a condition worth telling the user once.
	Warn func(msg string)
}

// Observer receives what the tracer sees.
type Observer interface {
	Start(ev []trace.StartEvent)
	Event(ev trace.Event)
}

// Limit is a resource limit the command starts with.
type Limit struct {
	Resource int    `json:"resource"` // RLIMIT_*
	Cur      uint64 `json:"cur"`
	Max      uint64 `json:"max"`
}

// Watch bounds a run in time and judges a command that does not exit by
// itself (a daemon). The zero Watch waits until every traced process has
// exited.
type Watch struct {
	// Alive: the command must still be running this long after it
	// started (a daemon that came up). Then Check, if any, runs against
	// it, and every traced process is stopped. The command counts as
	// running while any traced process is.
	Alive time.Duration
	// Check is a command (argv) run while the command is alive, after
	// Alive; its exit status is Result.CheckStatus. It is not traced.
	Check []string
	// Timeout stops every traced process once the run has lasted this
	// long (Result.TimedOut).
	Timeout time.Duration
	// EndWithRoot stops every traced process still running when the
	// command's own process exits: background children a script left
	// behind. Without it the run lasts until the last one exits.
	EndWithRoot bool
}

// Result sums up a traced run.
type Result struct {
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
}
