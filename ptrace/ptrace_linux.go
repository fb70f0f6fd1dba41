package ptrace

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// Ptrace options set at seize time.
const seizeOptions = unix.PTRACE_O_TRACESYSGOOD |
	unix.PTRACE_O_TRACECLONE |
	unix.PTRACE_O_TRACEFORK |
	unix.PTRACE_O_TRACEVFORK |
	unix.PTRACE_O_TRACEEXEC |
	unix.PTRACE_O_TRACESECCOMP |
	unix.PTRACE_O_TRACEEXIT |
	unix.PTRACE_O_EXITKILL

// ptrace makes a request that does not block. It uses RawSyscall: the
// tracer thread keeps its P, and the request skips the runtime's
// syscall bookkeeping, which on the stop loop's hot path adds up.
func ptrace(req int, pid int, addr, data uintptr) error {
	_, _, e := unix.RawSyscall6(unix.SYS_PTRACE, uintptr(req), uintptr(pid), addr, data, 0, 0)
	if e != 0 {
		return &requestError{req: req, err: e} // names the request (stopcheck_linux.go)
	}
	return nil
}

// seize attaches to pid with options, without stopping it. x/sys's
// PtraceSeize passes no options, hence the raw call.
// Must be called on the tracer thread.
func seize(pid int) error { return ptrace(unix.PTRACE_SEIZE, pid, 0, seizeOptions) }

// listen leaves a tracee in group-stop while still reporting to us.
func listen(tid int) error { return ptrace(unix.PTRACE_LISTEN, tid, 0, 0) }

func getRegs(tid int, r *regs) error {
	return ptrace(unix.PTRACE_GETREGS, tid, 0, uintptr(unsafe.Pointer(r)))
}

func eventMsg(tid int) (uint64, error) {
	var msg uint64
	err := ptrace(unix.PTRACE_GETEVENTMSG, tid, 0, uintptr(unsafe.Pointer(&msg)))
	return msg, err
}

// resumeSyscall resumes tid until its next syscall stop, delivering sig.
func resumeSyscall(tid, sig int) error { return ptrace(unix.PTRACE_SYSCALL, tid, 0, uintptr(sig)) }

// resumeCont resumes tid until its next seccomp stop, event or signal.
func resumeCont(tid, sig int) error { return ptrace(unix.PTRACE_CONT, tid, 0, uintptr(sig)) }

func setRegs(tid int, r *regs) error {
	return ptrace(unix.PTRACE_SETREGS, tid, 0, uintptr(unsafe.Pointer(r)))
}
