package container

import (
	"errors"
	"fmt"

	"github.com/envbisect/envbisect/trace"
)

// Target is where a command runs when it joins a container or a process.
type Target struct {
	// PID is the process whose namespaces and root the command joins, as
	// this host's pid namespace numbers it: a container's init process.
	PID int
	// Name and ID are the container's ("web", its full id); both empty
	// for a target given by pid.
	Name, ID string
	// Env is the environment the command starts with: the one docker
	// exec gives (the container's configured one, with PATH, HOSTNAME
	// and HOME), or the process's own for a pid.
	Env []string
	// Dir is the working directory inside the target's root.
	Dir string
	// Cgroup is the target's cgroup v2 path ("/docker/3f2a..."), "" when
	// the host has no cgroup v2 hierarchy.
	Cgroup string
	// CgroupDir is Cgroup's directory on this host
	// ("/sys/fs/cgroup/docker/3f2a..."), "" when unknown.
	CgroupDir string
	// CgroupID is CgroupDir's inode number: the cgroup id the kernel
	// reports for the target's tasks (bpf_get_current_cgroup_id); 0 when
	// unknown.
	CgroupID uint64
	// Exec is how docker exec would start the command there: user,
	// groups, capabilities, no_new_privs, rlimits, LSM label (execspec.go).
	// Its seccomp filters are left for the caller to copy
	// (SeccompFilters says how many the target runs under).
	Exec *trace.ExecSpec
	// SeccompFilters is how many seccomp filters the target runs under
	// (/proc/PID/status Seccomp_filters).
	SeccompFilters int
	// GroupAdd is the container's --group-add (HostConfig.GroupAdd),
	// which docker exec adds to any user's groups.
	GroupAdd []string

	configEnv []string // the container's Config.Env; nil for a pid
	hostname  string   // the container's Config.Hostname
}

// String names the target for people: "container web (3f2a9c1b7d4e)",
// "pid 1234".
func (t *Target) String() string {
	if t.ID == "" {
		return fmt.Sprintf("pid %d", t.PID)
	}
	id := t.ID
	if len(id) > 12 {
		id = id[:12]
	}
	if t.Name == "" {
		return "container " + id
	}
	return fmt.Sprintf("container %s (%s)", t.Name, id)
}

// Errors a lookup can end with, for errors.Is. The messages wrapping them
// say what to do.
var (
	// ErrNoEngine: no container engine answers on any socket tried.
	ErrNoEngine = errors.New("no container engine socket found")
	// ErrNotFound: no engine knows the container.
	ErrNotFound = errors.New("no such container")
	// ErrNotRunning: the container exists but is not running.
	ErrNotRunning = errors.New("container not running")
	// ErrPermission: an engine's socket, or the process's /proc files,
	// may not be read by this user.
	ErrPermission = errors.New("permission denied")
	// ErrNoProcess: there is no process with the pid given.
	ErrNoProcess = errors.New("no such process")
)
