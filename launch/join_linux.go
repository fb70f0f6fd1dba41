package launch

import (
	"errors"
	"fmt"
	"io/fs"
	"os/exec"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// ErrForeignUserNS is returned for a target in another user namespace (a
// rootless container): a multithreaded process such as envbisect cannot
// join one.
var ErrForeignUserNS = errors.New("the target runs in another user namespace (a rootless container?), " +
	"which a multithreaded program cannot join: run envbisect inside that user namespace " +
	"(for Podman: podman unshare envbisect ...), or use a rootful container")

// joinError wraps err of doing what on j's target, saying what to do
// where it can.
func joinError(j *trace.Join, what string, err error) error {
	switch {
	case errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ESRCH):
		return fmt.Errorf("join %s: %s: the process is gone (has the container stopped?): %w", j.Describe(), what, err)
	case errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM):
		return fmt.Errorf("join %s: %s: %w (joining another process's namespaces needs root: CAP_SYS_ADMIN and CAP_SYS_PTRACE)", j.Describe(), what, err)
	}
	return fmt.Errorf("join %s: %s: %w", j.Describe(), what, err)
}

// LookPath returns the executable that argv0 names, looked up in the
// host's PATH as exec.LookPath does; with join set it returns "": the
// helper looks the command up inside the target, where the host's PATH
// and files mean nothing. As with a shell, a command not found is an
// ExecError of code 127, and a path that names a directory or a file
// without execute permission one of code 126.
func LookPath(argv0 string, join *trace.Join) (string, error) {
	if join != nil {
		return "", nil
	}
	path, err := exec.LookPath(argv0)
	switch {
	case err == nil:
		return path, nil
	case errors.Is(err, unix.EISDIR):
		return "", &ExecError{Code: 126, Msg: argv0 + ": cannot execute: is a directory"}
	case errors.Is(err, fs.ErrPermission):
		return "", &ExecError{Code: 126, Msg: argv0 + ": cannot execute: permission denied (no execute permission)"}
	}
	return "", &ExecError{Code: 127, Msg: argv0 + ": command not found"}
}
