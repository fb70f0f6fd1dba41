package ptrace

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// InterruptGrace is how long a command has to end after the first
// signal envbisect passes on (Ctrl-C): then it gets SIGTERM, and after as
// long again every traced process is killed. A command that ignores
// SIGINT and SIGTERM still ends within twice this.
const InterruptGrace = 3 * time.Second

// forwardSignals passes the first signal envbisect receives on to the
// command and makes a second one kill every traced process. A Ctrl-C
// typed at the terminal already reached the command (it is in our
// foreground process group), so it is not sent twice. A command that
// does not end within InterruptGrace of the first signal gets SIGTERM
// (its process group too, when it leads one), and InterruptGrace later
// everything is killed, as by a second signal.
func (s *session) forwardSignals(pid int) (stop func()) {
	quit := make(chan struct{})
	go func() {
		n := 0
		var escalate <-chan time.Time
		terminated := false
		killAll := func() {
			s.killAll.Store(true)
			unix.Kill(pid, unix.SIGKILL)
		}
		for {
			select {
			case <-quit:
				return
			case <-escalate:
				if terminated {
					killAll()
					escalate = nil
					continue
				}
				terminated = true
				unix.Kill(pid, unix.SIGTERM)
				if pg, err := unix.Getpgid(pid); err == nil && pg == pid {
					unix.Kill(-pid, unix.SIGTERM)
				}
				escalate = time.After(InterruptGrace)
			case sig := <-s.cfg.Interrupt:
				n++
				s.interrupt.Store(true)
				if n > 1 {
					killAll()
					continue
				}
				escalate = time.After(InterruptGrace)
				if sig == os.Interrupt && foregroundTTY() {
					continue
				}
				if ss, ok := sig.(syscall.Signal); ok {
					unix.Kill(pid, ss)
				}
			}
		}
	}()
	return func() { close(quit) }
}

// foregroundTTY reports whether envbisect's stdin is a terminal whose
// foreground process group is ours: then a Ctrl-C went to the whole group.
func foregroundTTY() bool {
	pgrp, err := unix.IoctlGetInt(0, unix.TIOCGPGRP)
	return err == nil && pgrp == unix.Getpgrp()
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
