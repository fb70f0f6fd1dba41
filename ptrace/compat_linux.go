package ptrace

import (
	"encoding/binary"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/launch"
)

// CompatError is launch.CompatError, the refusal both recorders give a
// run with 32-bit system calls.
type CompatError = launch.CompatError

// compatError builds the refusal for the process t belongs to.
func compatError(t *task, how string) *CompatError {
	exe := t.proc.exe
	if exe == "" {
		exe, _ = os.Readlink(fmt.Sprintf("/proc/%d/exe", t.proc.pid))
	}
	return &CompatError{PID: t.proc.pid, Exe: exe, How: how}
}

// Offsets in the x86-64 siginfo_t of a SIGSYS (its _sigsys member).
const (
	siginfoCode    = 8
	siginfoSyscall = 24
	siginfoArch    = 28
	sysSeccomp     = 1 // si_code of a seccomp SECCOMP_RET_TRAP
)

// compatTrap reports, at a SIGSYS signal-delivery stop, the refusal when
// the signal is our filter's trap of a non-native call (launch's
// nativeOnly); nil for any other SIGSYS, which is delivered as usual.
// Must be called at t's signal-delivery stop.
func compatTrap(t *task) error {
	var info [128]byte
	if err := ptrace(unix.PTRACE_GETSIGINFO, t.tid, 0, uintptr(unsafe.Pointer(&info[0]))); err != nil {
		return nil
	}
	code := int32(binary.LittleEndian.Uint32(info[siginfoCode:]))
	arch := binary.LittleEndian.Uint32(info[siginfoArch:])
	if code != sysSeccomp || arch == nativeAuditArch {
		return nil
	}
	nr := int32(binary.LittleEndian.Uint32(info[siginfoSyscall:]))
	return compatError(t, launch.CompatCall(auditArchName(arch), int(nr)))
}

// syscallInfoArch returns the architecture PTRACE_GET_SYSCALL_INFO gives
// for t's current syscall stop (the fallback mode's entry stops, where no
// filter traps other ABIs). ok is false when the kernel lacks the request
// (before 5.3).
func syscallInfoArch(tid int) (arch uint32, nr uint64, ok bool) {
	var info [88]byte // struct ptrace_syscall_info
	r1, _, e := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_GET_SYSCALL_INFO, uintptr(tid),
		uintptr(len(info)), uintptr(unsafe.Pointer(&info[0])), 0, 0)
	if e != 0 || r1 < 24 {
		return 0, 0, false
	}
	// op (1), pad (3), arch (4), instruction_pointer, stack_pointer, then
	// entry.nr for an entry stop.
	return binary.LittleEndian.Uint32(info[4:]), binary.LittleEndian.Uint64(info[24:]), true
}

// auditArchName names an AUDIT_ARCH_ value for a message.
func auditArchName(arch uint32) string {
	switch arch {
	case unix.AUDIT_ARCH_I386:
		return "i386"
	case unix.AUDIT_ARCH_X86_64:
		return "x86-64"
	}
	return fmt.Sprintf("architecture %#x", arch)
}
