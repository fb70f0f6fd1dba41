package launch

import (
	"errors"
	"fmt"
	"os/exec"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// Join makes the command run inside another process's namespaces and
// root, as docker exec runs a command in a container, while the tracer
// stays on the host. See the package documentation ("Joining a
// container") for how.
type Join struct {
	// PID is the process whose namespaces (mount, pid, net, uts, ipc,
	// cgroup) and root directory the command joins, as this host's pid
	// namespace numbers it: a container's init process.
	PID int
	// CgroupDir, when set, is the cgroup v2 directory the command starts
	// in (the helper is cloned into it with CLONE_INTO_CGROUP).
	CgroupDir string
	// CgroupID is CgroupDir's inode number, the cgroup id the kernel
	// reports for the target's tasks (bpf_get_current_cgroup_id); 0 when
	// unknown. The eBPF recorder filters on it.
	CgroupID uint64
	// Name says where that is, for messages and the trace header:
	// "container web (3f2a9c1b7d4e)", "pid 1234".
	Name string
	// Exec, when set, is how docker exec would start the command there
	// (user, groups, capabilities, no_new_privs, seccomp filters,
	// rlimits, LSM label): the helper applies it before the exec
	// (becomeTarget). nil: the command runs as envbisect does.
	Exec *trace.ExecSpec
}

// ErrForeignUserNS is returned for a target in another user namespace (a
// rootless container): a multithreaded process such as envbisect cannot
// join one.
var ErrForeignUserNS = errors.New("the target runs in another user namespace (a rootless container?), " +
	"which a multithreaded program cannot join: run envbisect inside that user namespace " +
	"(for Podman: podman unshare envbisect ...), or use a rootful container")

// describe names the target in messages.
func (j *Join) describe() string {
	if j.Name != "" {
		return j.Name
	}
	return fmt.Sprintf("pid %d", j.PID)
}

// joinError wraps err of doing what on j's target, saying what to do
// where it can.
func joinError(j *Join, what string, err error) error {
	switch {
	case errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ESRCH):
		return fmt.Errorf("join %s: %s: the process is gone (has the container stopped?): %w", j.describe(), what, err)
	case errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM):
		return fmt.Errorf("join %s: %s: %w (joining another process's namespaces needs root: CAP_SYS_ADMIN and CAP_SYS_PTRACE)", j.describe(), what, err)
	}
	return fmt.Errorf("join %s: %s: %w", j.describe(), what, err)
}

// LookPath returns the executable that argv0 names, looked up in the
// host's PATH as exec.LookPath does; with join set it returns "": the
// helper looks the command up inside the target, where the host's PATH
// and files mean nothing. A command not found is an ExecError of code 127.
func LookPath(argv0 string, join *Join) (string, error) {
	if join != nil {
		return "", nil
	}
	path, err := exec.LookPath(argv0)
	if err != nil {
		return "", &ExecError{Code: 127, Msg: argv0 + ": command not found"}
	}
	return path, nil
}
