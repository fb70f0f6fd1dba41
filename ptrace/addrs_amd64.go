package ptrace

import "golang.org/x/sys/unix"

// setArgs sets the six argument registers of a call (redirectDest
// rewrites some at entry, restoreArgs puts them back at the exit).
func setArgs(r *regs, args [6]uint64) {
	r.Rdi, r.Rsi, r.Rdx, r.R10, r.R8, r.R9 = args[0], args[1], args[2], args[3], args[4], args[5]
}

// Numbers of the calls a redirected bind makes the thread perform.
const (
	nrBind        = unix.SYS_BIND
	nrGetsockname = unix.SYS_GETSOCKNAME
)
