package ptrace

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// kernelSigaction is struct sigaction as rt_sigaction(2) takes it on
// x86-64 and arm64: handler, flags, restorer, mask.
type kernelSigaction struct {
	handler  uintptr
	flags    uint64
	restorer uintptr
	mask     uint64
}

const sigIgn = 1 // SIG_IGN

// ignoreSIGCHLD sets SIGCHLD's disposition to SIG_IGN with rt_sigaction
// and returns a function that puts back exactly what was there (the Go
// runtime's handler). os/signal is not used because its Reset does not
// undo an Ignore for signals the runtime handles itself.
func ignoreSIGCHLD() (restore func(), err error) {
	var old kernelSigaction
	ign := kernelSigaction{handler: sigIgn}
	if _, _, e := unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(unix.SIGCHLD),
		uintptr(unsafe.Pointer(&ign)), uintptr(unsafe.Pointer(&old)), 8, 0, 0); e != 0 {
		return nil, e
	}
	return func() {
		unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(unix.SIGCHLD),
			uintptr(unsafe.Pointer(&old)), 0, 8, 0, 0)
	}, nil
}
