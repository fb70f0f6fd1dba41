package ptrace

import (
	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/launch"
)

// InterruptGrace is launch.InterruptGrace, the rule both recorders and
// locate's runs follow: a command that ignores SIGINT and SIGTERM still
// ends within twice this of the first signal.
const InterruptGrace = launch.InterruptGrace

// forwardSignals passes the first signal envbisect receives on to the
// command and ends every traced process at a second one, or at the end of
// the grace (launch.ForwardInterrupts): the root is SIGKILLed and the
// loop kills the rest (s.killAll).
func (s *session) forwardSignals(pid int) (stop func()) {
	return launch.ForwardInterrupts(launch.Interrupts{
		Signals: s.cfg.Interrupt,
		Root:    pid,
		Got:     func() { s.interrupt.Store(true) },
		KillAll: func() {
			s.killAll.Store(true)
			unix.Kill(pid, unix.SIGKILL)
		},
	})
}

// killEverything SIGKILLs every task still traced (and those whose
// creation was not seen yet) and reaps them. A SIGKILLed tracee still
// stops at PTRACE_EVENT_EXIT on its way out, and one already in a stop
// the loop took (the stop whose handling failed) does not leave it for a
// signal: every task is resumed now, and every stop that comes until it
// is gone. Waiting for them without resuming them would wait forever.
func (s *session) killEverything() {
	for tid := range s.tasks {
		unix.Kill(tid, unix.SIGKILL)
	}
	for tid, e := range s.early {
		if e.dead {
			continue // reaped already
		}
		unix.Kill(tid, unix.SIGKILL)
		s.tasks[tid] = &task{tid: tid}
	}
	for tid := range s.tasks {
		resumeCont(tid, 0) // ESRCH for a task that is not in a stop
	}
	for len(s.tasks) > 0 {
		var ws unix.WaitStatus
		tid, err := unix.Wait4(-1, &ws, unix.WALL, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return
		}
		switch {
		case ws.Exited() || ws.Signaled():
			delete(s.tasks, tid)
		case ws.Stopped():
			if s.tasks[tid] == nil {
				// A child made while we were killing: it goes too.
				unix.Kill(tid, unix.SIGKILL)
				s.tasks[tid] = &task{tid: tid}
			}
			resumeCont(tid, 0)
		}
	}
}
