package tracer

import "golang.org/x/sys/unix"

// Arch is the GOARCH whose registers this file reads.
const Arch = "amd64"

// regs is the register file of a stopped x86-64 tracee.
type regs = unix.PtraceRegs

// sysNr returns the number of the call a thread is making or made.
func sysNr(r *regs) int { return int(int64(r.Orig_rax)) }

// sysArgs returns the six argument registers.
func sysArgs(r *regs) [6]uint64 {
	return [6]uint64{r.Rdi, r.Rsi, r.Rdx, r.R10, r.R8, r.R9}
}

// sysRet returns the return register at a syscall-exit stop.
func sysRet(r *regs) int64 { return int64(r.Rax) }

// Syscall numbers the stop loop itself needs to recognise.
const (
	nrExecve   = unix.SYS_EXECVE
	nrExecveat = unix.SYS_EXECVEAT
)
