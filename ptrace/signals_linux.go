package ptrace

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// forwardSignals passes the first signal envbisect receives on to the
// command and makes a second one kill every traced process. A Ctrl-C
// typed at the terminal already reached the command (it is in our
// foreground process group), so it is not sent twice.
func (s *session) forwardSignals(pid int) (stop func()) {
	quit := make(chan struct{})
	go func() {
		n := 0
		for {
			select {
			case <-quit:
				return
			case sig := <-s.cfg.Interrupt:
				n++
				s.interrupt.Store(true)
				if n == 1 {
					if sig == os.Interrupt && foregroundTTY() {
						continue
					}
					if ss, ok := sig.(syscall.Signal); ok {
						unix.Kill(pid, ss)
					}
					continue
				}
				s.killAll.Store(true)
				unix.Kill(pid, unix.SIGKILL)
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
	for tid := range s.early {
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
