package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/envbisect/envbisect/container"
	"github.com/envbisect/envbisect/ptrace"
	"github.com/envbisect/envbisect/trace"
)

// containerFlags are --container and --pid, which record, replay and
// locate share to run the command inside a container.
type containerFlags struct {
	container string
	pid       int
	user      string
}

func (c *containerFlags) add(f *pflag.FlagSet) {
	f.StringVar(&c.container, "container", "", "run CMD inside the running container `NAME|ID` (Docker, or Podman through its "+
		"Docker-compatible API socket), as docker exec runs it: in its mount, pid, net, uts, ipc and cgroup namespaces and its root, "+
		"with its configured user and groups (--group-add), capabilities and bounding set, no_new_privs, seccomp filters, "+
		"resource limits, security label, environment and working directory, CMD looked up in its PATH; "+
		"envbisect traces it from the host (needs root; --check runs on the host)")
	f.IntVar(&c.pid, "pid", 0, "like --container, for any process: run CMD in the namespaces and root of process `PID` "+
		"(a containerd or Kubernetes container's, one started by unshare), with that process's user, groups, capabilities, "+
		"no_new_privs, seccomp filters, resource limits, environment and working directory")
	f.StringVar(&c.user, "user", "", "with --container or --pid: run CMD as `USER[:GROUP]` (a name or number, resolved in the "+
		"target's /etc/passwd and /etc/group), like docker exec --user; default: the container's configured user, or the process's own")
}

// given reports whether CMD runs in a container or a process's namespaces.
func (c *containerFlags) given() bool { return c.container != "" || c.pid != 0 }

// resolve finds the target the flags name. It returns a nil Join, env
// and "" dir when neither flag is given: CMD runs here, with envbisect's
// own environment and working directory. A target that does not exist
// or is not running is a usage error (exit 2).
func (c *containerFlags) resolve() (*trace.Join, []string, string, error) {
	var t *container.Target
	var err error
	switch {
	case c.container != "" && c.pid != 0:
		return nil, nil, "", usageError("--container and --pid both given: give one")
	case c.user != "" && !c.given():
		return nil, nil, "", usageError("--user %s: give --container or --pid too (on the host, run envbisect as that user)", c.user)
	case c.container != "":
		t, err = container.Lookup(context.Background(), c.container, container.Sockets(os.Getenv))
	case c.pid < 0:
		return nil, nil, "", usageError("--pid %d: give the pid of a running process", c.pid)
	case c.pid > 0:
		t, err = container.FromPID(c.pid)
	default:
		return nil, nil, "", nil
	}
	switch {
	case errors.Is(err, container.ErrNotFound), errors.Is(err, container.ErrNotRunning), errors.Is(err, container.ErrNoProcess):
		return nil, nil, "", withCode(exitUsage, err)
	case err != nil:
		return nil, nil, "", withCode(exitError, err)
	}
	if err := c.execSpec(t); err != nil {
		return nil, nil, "", withCode(exitError, err)
	}
	env := t.Env
	if env == nil {
		env = []string{} // the container's: empty, not envbisect's
	}
	return &trace.Join{PID: t.PID, CgroupDir: t.CgroupDir, CgroupID: t.CgroupID, Name: t.String(), Exec: t.Exec}, env, t.Dir, nil
}

// warnWhere warns when a trace recorded in a container is run on the
// host, or the other way round: the runs then compare different worlds.
func (c *containerFlags) warnWhere(s streams, path string, h *trace.Header) {
	switch {
	case h.Container != "" && !c.given():
		fmt.Fprintf(s.err, "envbisect: warning: %s was recorded in %s, and this runs on the host: give --container or --pid to run there\n",
			path, h.Container)
	case h.Container == "" && c.given():
		fmt.Fprintf(s.err, "envbisect: note: %s was recorded on the host, and this runs in a container\n", path)
	}
}

// execSpec completes t's exec spec: the user --user names, and a copy of
// the seccomp filters the target runs under. A filter that cannot be
// copied stops the run: without it the command would have privileges
// there that the target is configured to deny.
func (c *containerFlags) execSpec(t *container.Target) error {
	if c.user != "" {
		if err := t.SetUser(c.user); err != nil {
			return fmt.Errorf("%s: --user %s: %w", t, c.user, err)
		}
	}
	if t.SeccompFilters == 0 {
		return nil
	}
	filters, err := ptrace.CopySeccompFilters(t.PID)
	if err != nil {
		return fmt.Errorf("%s runs under seccomp filters, which the command must run under too: %w", t, err)
	}
	t.Exec.Seccomp = filters
	return nil
}

// describe says how the command runs, for messages: "joined container
// web as docker exec would, as user 1000:1000"; "" on the host.
func (c *containerFlags) describe() string {
	switch {
	case c.container != "":
		return "joined container " + c.container + " as docker exec would, as " + c.userText()
	case c.pid != 0:
		return fmt.Sprintf("joined pid %d as its own processes run, as %s", c.pid, c.userText())
	}
	return ""
}

func (c *containerFlags) userText() string {
	if c.user == "" {
		return "its configured user"
	}
	return "user " + c.user
}
