package launch

import (
	"fmt"
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// The open-files limit a command inherits is not envbisect's own. The
// Go runtime raises its own soft RLIMIT_NOFILE to the hard limit minus
// one when it starts (package syscall's init, go.dev/issue/46279) and
// puts the original back in every process it starts: in the child of
// syscall.ForkExec before its exec, and before syscall.Exec (the
// unexported syscall.origRlimitNofile, forgotten once the program sets
// the limit itself). So the helper's command starts with the limit
// envbisect started with, which no call in envbisect can read back.
// commandNofile reads it where it is: in a child of envbisect stopped at
// its exec (PTRACE_TRACEME), after the runtime restored the limit and
// before any of the child's own code ran; the child is killed there.

// commandNofile returns the RLIMIT_NOFILE a command started now by this
// process inherits. Call it when no tracer of this process waits for any
// child (wait4(-1)): before a run starts, as locate and replay do. It
// locks the calling goroutine's thread while its probe lives.
func commandNofile() (unix.Rlimit, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	self, err := os.Executable()
	if err != nil {
		self = "/proc/self/exe"
	}
	pid, err := syscall.ForkExec(self, []string{"envbisect-nofile-probe"}, &syscall.ProcAttr{
		Env: []string{}, Sys: &syscall.SysProcAttr{Ptrace: true, Pdeathsig: syscall.SIGKILL}})
	if err != nil {
		return unix.Rlimit{}, fmt.Errorf("open-files limit of a command: start a probe: %w", err)
	}
	var rl unix.Rlimit
	var ws unix.WaitStatus
	_, werr := unix.Wait4(pid, &ws, unix.WALL, nil)
	if werr == nil && ws.Stopped() {
		werr = unix.Prlimit(pid, unix.RLIMIT_NOFILE, nil, &rl)
	} else if werr == nil {
		werr = fmt.Errorf("probe did not stop at its exec (status %#x)", uint32(ws))
	}
	unix.Kill(pid, unix.SIGKILL)
	for {
		var st unix.WaitStatus
		if _, err := unix.Wait4(pid, &st, unix.WALL, nil); err != nil || st.Exited() || st.Signaled() {
			break
		}
	}
	if werr != nil {
		return unix.Rlimit{}, fmt.Errorf("open-files limit of a command: %w", werr)
	}
	return rl, nil
}
