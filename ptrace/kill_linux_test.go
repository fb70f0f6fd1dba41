package ptrace

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestKillEverythingResumesExitStops: when the stop loop fails, every
// traced task is SIGKILLed and reaped. A task already in its
// PTRACE_EVENT_EXIT stop (the stop the loop took before it failed, or the
// one a SIGKILLed task makes on its way out) does not leave it for a
// signal: killEverything must resume it, or it waits forever (the hang of
// a locate under load, with the tracee holding the caller's pipe).
func TestKillEverythingResumesExitStops(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.File("/bin/sleep"))
	done := make(chan error, 1)
	pids := make(chan int, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread holds tracees until they are gone
		pid, err := syscall.ForkExec("/bin/sleep", []string{"sleep", "60"}, &syscall.ProcAttr{})
		if err != nil {
			done <- err
			return
		}
		pids <- pid
		if err := seize(pid); err != nil {
			unix.Kill(pid, unix.SIGKILL)
			var ws unix.WaitStatus
			unix.Wait4(pid, &ws, unix.WALL, nil)
			done <- err
			return
		}
		// SIGKILLed, the tracee stops at PTRACE_EVENT_EXIT; the loop took
		// that stop, and then failed.
		unix.Kill(pid, unix.SIGKILL)
		var ws unix.WaitStatus
		if _, err := unix.Wait4(pid, &ws, unix.WALL, nil); err != nil {
			done <- err
			return
		}
		if !ws.Stopped() || int(ws>>16)&0xff != unix.PTRACE_EVENT_EXIT {
			t.Errorf("the SIGKILLed tracee reported %#x, want its PTRACE_EVENT_EXIT stop", uint32(ws))
		}
		s := &session{tasks: map[int]*task{pid: {tid: pid}}, early: map[int]*earlyTask{}}
		s.killEverything()
		done <- nil
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatalf("killEverything still waits after a minute for a tracee stopped at its exit")
	}
	pid := <-pids
	var ws unix.WaitStatus
	if got, err := unix.Wait4(pid, &ws, unix.WALL|unix.WNOHANG, nil); err != unix.ECHILD {
		t.Errorf("wait4(%d) after killEverything = %d, %v; want ECHILD: it reaps what it kills", pid, got, err)
	}
}
