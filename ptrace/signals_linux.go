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

// killEverything SIGKILLs every task still traced and reaps them.
func (s *session) killEverything() {
	for tid := range s.tasks {
		unix.Kill(tid, unix.SIGKILL)
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
		if ws.Exited() || ws.Signaled() {
			delete(s.tasks, tid)
		}
	}
}
