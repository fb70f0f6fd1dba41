// Package container finds where a command should run when the user names
// a container (`--container NAME|ID`) or a process (`--pid PID`): a
// Target, with the process whose namespaces and root the command joins,
// the environment and working directory it starts with, and the cgroup it
// belongs in. Joining is package launch's business (trace.Join); this package
// only resolves names, and touches no process.
//
// # Containers
//
// A container is looked up through its engine's HTTP API on the engine's
// unix socket, with net/http and a unix dialer (no docker CLI, no SDK):
// GET /containers/{ref}/json answers Id, Name, State.Running, State.Pid
// (the container's init process, in the host's pid namespace),
// Config.Env and Config.WorkingDir. The unversioned path is served by
// Docker and by Podman's Docker-compatible API service alike. The sockets
// are tried in order (Sockets): $DOCKER_HOST when it is a unix:// address,
// /var/run/docker.sock, /run/podman/podman.sock and
// $XDG_RUNTIME_DIR/podman/podman.sock; the first engine that knows the
// container answers. Errors say what to do: no engine socket (with the
// paths tried), no such container, a container that is not running,
// permission denied on the socket.
//
// Like docker exec, the command gets the container's environment, not
// envbisect's: Docker's default PATH and HOSTNAME (Config.Hostname),
// overridden or added to by Config.Env, and HOME from the container's
// /etc/passwd entry of root when still unset (execenv.go); and its
// working directory (Config.WorkingDir, or /).
//
// # The exec spec
//
// Target.Exec (a trace.ExecSpec, plain data) is how docker exec would
// start the command there, for the tracer's helper to apply: the user
// (Config.User, or SetUser's, resolved in the container's /etc/passwd
// and /etc/group as runc does: the primary group, the groups listing the
// user when no group was given, then HostConfig.GroupAdd), and, read from
// the target process's /proc/PID (execspec.go), its capability bounding,
// inheritable and ambient sets, no_new_privs, resource limits
// (/proc/PID/limits: prlimit(2) would need CAP_SYS_RESOURCE) and LSM
// label (attr/current). The permitted and effective sets before the exec
// are the bounding set when the target runs as root, else its own (Docker
// gives a non-root container none). Its seccomp filters are not read
// here: copying them takes ptrace (ptrace.CopySeccompFilters);
// Target.SeccompFilters says how many there are. For --pid the ids and
// groups are the process's own.
//
// # Processes
//
// For --pid, the environment is the process's own (/proc/PID/environ)
// and the working directory the one /proc/PID/cwd shows, made relative to
// the process's root (/proc/PID/root) when the process is chrooted.
//
// # Cgroups
//
// Target.Cgroup is the process's cgroup v2 path (the "0::" line of
// /proc/PID/cgroup), CgroupDir its directory under this host's cgroup2
// mount (found in /proc/self/mountinfo: /sys/fs/cgroup, or
// /sys/fs/cgroup/unified on hybrid hosts), and CgroupID that directory's
// inode number, which is the id bpf_get_current_cgroup_id returns for the
// container's tasks: the eBPF recorder filters on it.
package container
