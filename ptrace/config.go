package ptrace

import (
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/serve"
)

// Config says what to run and how to trace it: the launcher's settings,
// which the eBPF recorder shares, and the engine's own.
type Config struct {
	launch.Config

	// NoSeccomp forces the PTRACE_SYSCALL fallback even where seccomp
	// filters work.
	NoSeccomp bool
	// NoVDSO hides the vDSO from every image the command execs, so that
	// time queries become system calls the trace holds.
	NoVDSO bool
	// Replayer, when set, makes the run a semi-replay run: it decides
	// about every call as it enters (see Replayer). nil records.
	Replayer Replayer
	// Serve, in a semi-replay run, holds the good environment's files the
	// trace keeps: a replayed call that gives the program an fd on one of
	// them gets a stand-in filled with its content (replay_linux.go).
	// nil: stand-ins stay empty. A replayed exec whose image it holds
	// runs that image (serveexec_linux.go); nil: execs execute. The
	// caller owns and closes it.
	Serve *serve.Store
	// Files, when set in a recording (Replayer nil), takes the regular
	// files the command opens for reading and the images it execs, with
	// their ELF interpreters, as file objects; each call that opened or
	// ran one gets its ID in Obj.
	Files FileSink
	// Answering, when set (Replayer nil, Files nil), stops only its
	// calls and lets Answer change their answers; see Answering.
	Answering *Answering
}

// Answering is a run that records nothing and replays nothing: the
// command runs live, its seccomp filter stops only the calls Stop names
// (launch's TraceOnly: every other call runs untouched, at native
// speed), and at the exit of each of those Answer may change what the
// program sees. A materialized run uses it to put in place a kernel
// answer no namespace gives (the kernel release uname reports). The
// engine still follows every fork, clone and exec (ptrace events), and
// hands the Observer the process events and the stopped calls.
type Answering struct {
	// Stop are the calls that stop, by name (systable's KernelNames).
	Stop []string
	// Answer decides what the program sees of a stopped call.
	Answer Answerer
}
