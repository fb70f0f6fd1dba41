package ptrace

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

// syscallInsnLen is the length of the instruction that enters the
// kernel (syscall, 0f 05): rewinding the instruction pointer by it at an
// exit stop makes the thread make another call.
const syscallInsnLen = 2

// setSyscall makes r a call of nr with args, for a thread about to
// execute the syscall instruction again (see inject).
func setSyscall(r *regs, nr int, args [6]uint64) {
	r.Rax, r.Orig_rax = uint64(nr), uint64(nr)
	r.Rdi, r.Rsi, r.Rdx, r.R10, r.R8, r.R9 = args[0], args[1], args[2], args[3], args[4], args[5]
}

// skipCall makes the entering call not run: the kernel returns ret.
func skipCall(r *regs, ret int64) {
	r.Orig_rax = ^uint64(0)
	r.Rax = uint64(ret)
}

// replaceCall makes the entering call another one, nr with args.
func replaceCall(r *regs, nr int, args [6]uint64) {
	r.Orig_rax = uint64(nr)
	r.Rdi, r.Rsi, r.Rdx, r.R10, r.R8, r.R9 = args[0], args[1], args[2], args[3], args[4], args[5]
}

// setRet sets the return register at an exit stop.
func setRet(r *regs, ret int64) { r.Rax = uint64(ret) }

// stackPointer returns the thread's stack pointer.
func stackPointer(r *regs) uint64 { return r.Rsp }

// instructionPointer and setInstructionPointer read and move rip.
func instructionPointer(r *regs) uint64       { return r.Rip }
func setInstructionPointer(r *regs, v uint64) { r.Rip = v }

// redZone is the stack area below the stack pointer that leaf functions
// may use without moving it (System V x86-64 ABI): scratch data the
// tracer puts on a stopped thread's stack goes below it.
const redZone = 128

// Numbers of the calls replay makes a thread perform.
const (
	nrMemfdCreate = unix.SYS_MEMFD_CREATE
	nrDup3        = unix.SYS_DUP3
	nrClose       = unix.SYS_CLOSE
	nrExecveat    = unix.SYS_EXECVEAT
)

// user32CS is the code segment selector of a thread running 32-bit code
// (__USER32_CS): a process whose image is an i386 program.
const user32CS = 0x23

// runs32Bit reports whether a stopped thread executes 32-bit code.
func runs32Bit(r *regs) bool { return r.Cs == user32CS }

// nativeAuditArch is the architecture (AUDIT_ARCH_*) of the calls this
// engine decodes; PTRACE_GET_SYSCALL_INFO and a seccomp SIGSYS name
// another one for an i386 call.
const nativeAuditArch = unix.AUDIT_ARCH_X86_64
