package ptrace

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// ptraceSeccompGetFilter is PTRACE_SECCOMP_GET_FILTER (linux/ptrace.h).
const ptraceSeccompGetFilter = 0x420c

// CopySeccompFilters returns the seccomp filters process pid runs under,
// oldest first (the order to install them in), read with
// PTRACE_SECCOMP_GET_FILTER: pid is seized and interrupted for as long
// as that takes, then detached, and a signal that arrived meanwhile is
// passed on. It needs CAP_SYS_ADMIN and that envbisect itself runs
// under no filter. It runs on a thread of its own.
func CopySeccompFilters(pid int) ([]trace.BPFProgram, error) {
	type result struct {
		progs []trace.BPFProgram
		err   error
	}
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		p, err := copyFilters(pid)
		done <- result{p, err}
	}()
	r := <-done
	if r.err != nil {
		return nil, fmt.Errorf("copy the seccomp filters of pid %d: %w", pid, r.err)
	}
	return r.progs, nil
}

// copyFilters does CopySeccompFilters' work on the calling, locked thread.
func copyFilters(pid int) ([]trace.BPFProgram, error) {
	if err := ptrace(unix.PTRACE_SEIZE, pid, 0, 0); err != nil {
		if errors.Is(err, unix.EPERM) {
			return nil, fmt.Errorf("%w (%v)", ErrPtraceDenied, err)
		}
		return nil, fmt.Errorf("ptrace seize: %w", err)
	}
	pass := 0 // a signal to deliver on detach
	defer func() { ptrace(unix.PTRACE_DETACH, pid, 0, uintptr(pass)) }()
	if err := ptrace(unix.PTRACE_INTERRUPT, pid, 0, 0); err != nil {
		return nil, fmt.Errorf("ptrace interrupt: %w", err)
	}
	for {
		var ws unix.WaitStatus
		if _, err := unix.Wait4(pid, &ws, unix.WALL, nil); err != nil {
			if err == unix.EINTR {
				continue
			}
			return nil, fmt.Errorf("wait for the stop: %w", err)
		}
		if ws.Exited() || ws.Signaled() {
			return nil, fmt.Errorf("the process exited")
		}
		if !ws.Stopped() {
			continue
		}
		if int(ws>>16)&0xff != unix.PTRACE_EVENT_STOP {
			pass = int(ws.StopSignal()) // a signal-delivery stop: keep the signal
		}
		break
	}
	var newestFirst []trace.BPFProgram
	for i := 0; ; i++ {
		n, _, e := unix.RawSyscall6(unix.SYS_PTRACE, ptraceSeccompGetFilter, uintptr(pid), uintptr(i), 0, 0, 0)
		if e == unix.ENOENT || e == unix.EINVAL && i == 0 {
			break // no filter at this index (EINVAL: none at all): all read
		}
		if e != 0 {
			return nil, fmt.Errorf("PTRACE_SECCOMP_GET_FILTER %d: %w", i, e)
		}
		buf := make([]unix.SockFilter, n)
		if n > 0 {
			if _, _, e := unix.RawSyscall6(unix.SYS_PTRACE, ptraceSeccompGetFilter, uintptr(pid), uintptr(i), uintptr(unsafe.Pointer(&buf[0])), 0, 0); e != 0 {
				return nil, fmt.Errorf("PTRACE_SECCOMP_GET_FILTER %d: %w", i, e)
			}
		}
		p := make(trace.BPFProgram, len(buf))
		for j, in := range buf {
			p[j] = trace.BPFInstruction{Code: in.Code, Jt: in.Jt, Jf: in.Jf, K: in.K}
		}
		newestFirst = append(newestFirst, p)
	}
	out := make([]trace.BPFProgram, len(newestFirst))
	for i, p := range newestFirst {
		out[len(out)-1-i] = p
	}
	return out, nil
}
