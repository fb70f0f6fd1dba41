package launch

import "fmt"

// CompatError refuses a run in which a process makes a system call
// through another ABI than the native one (on x86-64: i386 calls, made
// by a 32-bit program or through int 0x80). Both recorders read a native
// register file and the native syscall table; such a call would be
// recorded as the native call of the same number (i386 open, 5, as
// fstat), so the trace would be silently wrong. envbisect refuses it:
// the ptrace engine at the call's stop (nativeOnly's trap), the eBPF
// recorder when its probe reports the call (package ebpfrec).
type CompatError struct {
	PID int
	Exe string
	// How says what was seen: CompatProgram, or CompatCall's "made i386
	// system call 5".
	How string
}

func (e *CompatError) Error() string {
	return fmt.Sprintf("pid %d (%s) %s: 32-bit system calls are not supported "+
		"(envbisect records x86-64 calls only; the run was stopped)", e.PID, e.Exe, e.How)
}

// CompatProgram is CompatError.How for a process whose image is a 32-bit
// program.
const CompatProgram = "is a 32-bit (i386) program"

// CompatCall is CompatError.How for one call made through the ABI named
// arch ("i386") with number nr.
func CompatCall(arch string, nr int) string {
	return fmt.Sprintf("made %s system call %d", arch, nr)
}
