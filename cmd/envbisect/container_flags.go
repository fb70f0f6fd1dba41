package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/envbisect/envbisect/container"
	"github.com/envbisect/envbisect/trace"
)

// containerFlags are --container and --pid, which record, replay and
// locate share to run the command inside a container.
type containerFlags struct {
	container string
	pid       int
}

func (c *containerFlags) add(f *pflag.FlagSet) {
	f.StringVar(&c.container, "container", "", "run CMD inside the running container `NAME|ID` (Docker, or Podman through its "+
		"Docker-compatible API socket), like docker exec: in its mount, pid, net, uts, ipc and cgroup namespaces and its root, "+
		"with its configured environment and working directory, CMD looked up in its PATH; envbisect traces it from the host "+
		"(needs root; --check runs on the host)")
	f.IntVar(&c.pid, "pid", 0, "like --container, for any process: run CMD in the namespaces and root of process `PID` "+
		"(a containerd or Kubernetes container's, one started by unshare), with that process's environment and working directory")
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
	env := t.Env
	if env == nil {
		env = []string{} // the container's: empty, not envbisect's
	}
	return &trace.Join{PID: t.PID, CgroupDir: t.CgroupDir, CgroupID: t.CgroupID, Name: t.String()}, env, t.Dir, nil
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
