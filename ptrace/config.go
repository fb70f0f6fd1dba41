package ptrace

import "github.com/envbisect/envbisect/launch"

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
	// Files, when set in a recording (Replayer nil), takes the regular
	// files the command opens for reading and the images it execs, with
	// their ELF interpreters, as file objects; each call that opened or
	// ran one gets its ID in Obj.
	Files FileSink
}
