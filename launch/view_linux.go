package launch

import (
	"fmt"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// InView calls f on a thread of its own that has entered the mount
// namespace ns (a run's view of the file system, see Config.View), so
// that the processes f starts (a check command) see the files the run's
// command wrote in its sandbox. The thread gets its own fs_struct first
// (setns of a mount namespace refuses a shared one), is locked and never
// unlocked: it exits with its goroutine instead of going back to the Go
// scheduler in a foreign namespace. Paths f uses resolve in the view,
// from its root. An error means f was not called.
func InView(ns *os.File, f func()) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := unix.Unshare(unix.CLONE_FS); err != nil {
			errc <- fmt.Errorf("enter the run's file system view: unshare(CLONE_FS): %w", err)
			return
		}
		if err := unix.Setns(int(ns.Fd()), unix.CLONE_NEWNS); err != nil {
			errc <- fmt.Errorf("enter the run's file system view: setns: %w", err)
			return
		}
		f()
		errc <- nil
	}()
	return <-errc
}
