package trace

import "fmt"

// Join makes the command run inside another process's namespaces and
// root, as docker exec runs a command in a container, while the recorder
// stays on the host. Package launch carries it out (see its
// documentation, "Joining a container").
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
	// rlimits, LSM label): the launcher's helper applies it before the
	// exec (becomeTarget). nil: the command runs as envbisect does.
	Exec *ExecSpec
}

// Describe names the target in messages.
func (j *Join) Describe() string {
	if j.Name != "" {
		return j.Name
	}
	return fmt.Sprintf("pid %d", j.PID)
}

// Root is the root directory the command sees, as this host names it:
// the joined process's (/proc/PID/root), or "/" for no join (nil).
func (j *Join) Root() string {
	if j == nil || j.PID <= 0 {
		return "/"
	}
	return fmt.Sprintf("/proc/%d/root", j.PID)
}
