package container

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// FromPID returns the target that process pid is: its environment,
// working directory, identity (Exec) and cgroup.
func FromPID(pid int) (*Target, error) {
	if pid <= 0 {
		return nil, fmt.Errorf("%w: pid %d: give the pid of a running process", ErrNoProcess, pid)
	}
	t := &Target{PID: pid}
	env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		return nil, procError(pid, "read its environment", err)
	}
	t.Env = splitNUL(env)
	if t.Dir, err = workingDir(pid); err != nil {
		return nil, err
	}
	if err := t.SetUser(""); err != nil {
		return nil, err
	}
	if err := t.findCgroup(); err != nil {
		return nil, err
	}
	return t, nil
}

// workingDir returns pid's working directory as it sees it: what
// /proc/PID/cwd shows, less its root's path when it is chrooted below
// what we see as /.
func workingDir(pid int) (string, error) {
	cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pid))
	if err != nil {
		return "", procError(pid, "read its working directory", err)
	}
	root, err := os.Readlink(fmt.Sprintf("/proc/%d/root", pid))
	if err != nil {
		return "", procError(pid, "read its root directory", err)
	}
	return insideRoot(cwd, root), nil
}

// insideRoot returns dir, a path as /proc shows it, as seen from below
// root.
func insideRoot(dir, root string) string {
	dir, root = path.Clean(dir), path.Clean(root)
	if root == "/" || !strings.HasPrefix(dir+"/", root+"/") {
		return dir
	}
	if rel := strings.TrimPrefix(dir, root); rel != "" {
		return rel
	}
	return "/"
}

// procError wraps an error reading /proc/PID, saying what to do.
func procError(pid int, what string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: pid %d: %s: there is no such process (give the pid of a running process)", ErrNoProcess, pid, what)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%w: pid %d: %s: %v (joining another process's namespaces needs root)", ErrPermission, pid, what, err)
	}
	return fmt.Errorf("pid %d: %s: %w", pid, what, err)
}

// splitNUL splits a NUL-separated list (/proc/PID/environ).
func splitNUL(b []byte) []string {
	var out []string
	for _, s := range bytes.Split(b, []byte{0}) {
		if len(s) > 0 {
			out = append(out, string(s))
		}
	}
	return out
}
