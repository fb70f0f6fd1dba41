package launch

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// defaultPath is the PATH a joined command is looked up in when its
// environment has none (what docker exec uses).
const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// enterTarget makes the calling thread, the helper's locked main thread,
// enter the namespaces and root spec names and change to its working
// directory. The other threads of the helper stay where they are; only
// this one execs the command, which keeps its namespaces and fs_struct.
// Must run on the thread that execs.
func enterTarget(specJSON string) error {
	var spec joinSpec
	if err := json.Unmarshal([]byte(specJSON), &spec); err != nil {
		return fmt.Errorf("bad %s: %w", helperJoinEnv, err)
	}
	// Go's threads share one fs_struct (root and cwd), and setns of a
	// mount namespace refuses a shared one: this thread gets its own.
	if err := unix.Unshare(unix.CLONE_FS); err != nil {
		return fmt.Errorf("unshare(CLONE_FS): %w", err)
	}
	for _, ns := range spec.NS {
		if err := unix.Setns(ns.FD, ns.Type); err != nil {
			return fmt.Errorf("enter its %s namespace: %w", ns.Name, err)
		}
		unix.Close(ns.FD)
	}
	// setns into a mount namespace moved the root to that namespace's
	// root; the target's own root can be below it (a chroot).
	if spec.Root >= 0 {
		if err := unix.Fchdir(spec.Root); err != nil {
			return fmt.Errorf("enter its root directory: %w", err)
		}
		if err := unix.Chroot("."); err != nil {
			return fmt.Errorf("chroot to its root directory: %w", err)
		}
		unix.Close(spec.Root)
	}
	dir := spec.Dir
	if dir == "" {
		dir = "/"
	}
	if err := unix.Chdir(dir); err != nil {
		return fmt.Errorf("change to its working directory %s: %w", dir, err)
	}
	return nil
}

// lookPath finds the executable name in the PATH of env, as a shell
// would, in the current root: the helper looks a joined command up inside
// the target, where the host's PATH means nothing.
func lookPath(name string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	path, found := defaultPath, false
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok && !found {
			path, found = v, true
		}
	}
	denied := false
	for _, dir := range strings.Split(path, ":") {
		if dir == "" {
			dir = "."
		}
		p := dir + "/" + name
		fi, err := os.Stat(p)
		if err != nil || fi.IsDir() {
			continue
		}
		if fi.Mode()&0o111 == 0 || unix.Access(p, unix.X_OK) != nil {
			denied = true
			continue
		}
		return p, nil
	}
	if denied {
		return "", &ExecError{Code: 126, Msg: fmt.Sprintf("%s: permission denied (found in PATH=%s, but not executable)", name, path)}
	}
	return "", &ExecError{Code: 127, Msg: fmt.Sprintf("%s: command not found in PATH=%s inside the joined root", name, path)}
}

// errExecCode returns the exit code an ExecError carries, or def.
func errExecCode(err error, def int) int {
	var ee *ExecError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return def
}
