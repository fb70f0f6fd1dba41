package ptrace

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// inject makes t, stopped at the exit of a call with registers at, make
// one more call (nr with args) and returns its result; t is left at the
// same exit stop with registers at restored. This is how a semi-replay
// run creates the stand-in fds and moves fds to the numbers the program
// believes in, where the entering call could not simply be replaced.
//
// The instruction pointer is wound back over the syscall instruction and
// the thread resumed with PTRACE_SYSCALL: it re-enters the kernel with
// the new number (an entry stop, a seccomp stop when the filter traps
// the call, then the exit stop). A signal that arrives meanwhile is held
// back and raised again afterwards, so no handler runs on the rewound
// registers. Other threads' stops wait in the kernel: only t is waited
// for.
func (s *session) inject(t *task, at *regs, nr int, args [6]uint64) (int64, error) {
	r := *at
	setSyscall(&r, nr, args)
	setInstructionPointer(&r, instructionPointer(at)-syscallInsnLen)
	if err := setRegs(t.tid, &r); err != nil {
		return 0, err
	}
	var held []int
	defer func() {
		for _, sig := range held {
			unix.Tgkill(t.proc.pid, t.tid, unix.Signal(sig))
		}
	}()
	if err := resumeSyscall(t.tid, 0); err != nil {
		return 0, err
	}
	entered := false
	for {
		var ws unix.WaitStatus
		_, err := unix.Wait4(t.tid, &ws, unix.WALL, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("wait for injected call: %w", err)
		}
		s.stops++
		if ws.Exited() || ws.Signaled() {
			s.gone(t, ws)
			return 0, unix.ESRCH
		}
		if !ws.Stopped() {
			continue
		}
		sig := int(ws>>8) & 0xff
		event := int(ws>>16) & 0xff
		switch {
		case sig == int(unix.SIGTRAP)|0x80 && !entered:
			entered = true
		case sig == int(unix.SIGTRAP)|0x80:
			var got regs
			if err := getRegs(t.tid, &got); err != nil {
				return 0, err
			}
			return sysRet(&got), setRegs(t.tid, at)
		case event == unix.PTRACE_EVENT_EXIT:
			// Killed meanwhile: let it die; its exit is reaped above.
			if err := resumeCont(t.tid, 0); err != nil {
				return 0, err
			}
			continue
		case event != 0 || sig == int(unix.SIGTRAP):
			// A seccomp stop of the injected call, or another event stop.
		default:
			held = append(held, sig) // a signal: deliver it afterwards
		}
		if err := resumeSyscall(t.tid, 0); err != nil {
			return 0, err
		}
	}
}
