package ptrace

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/launch"
)

// cleanup removes the scratch directory the run made outside a sandbox.
func (rd *redirects) cleanup() error {
	if rd.hostDir == "" {
		return nil
	}
	if err := os.RemoveAll(rd.hostDir); err != nil {
		return fmt.Errorf("remove the run's scratch directory: %w", err)
	}
	return nil
}

// scratchDir returns the run's scratch directory as the command sees the
// file system, making it on first use: through /proc/PID/root, so it is
// made in the command's own view (its sandbox), with a name of its own
// (envbisect-scratch-PID-random), owned by t's file-system user and group
// (the creations made there run as t), mode 0700.
func (s *session) scratchDir(t *task) (string, error) {
	if s.redir.dir != "" {
		return s.redir.dir, nil
	}
	uid, gid := fsIDs(t.tid)
	var errs []error
	root := "/proc/" + strconv.Itoa(t.tid) + "/root"
	for _, base := range launch.ScratchBases() {
		host, err := os.MkdirTemp(root+base, "envbisect-scratch-"+strconv.Itoa(s.root.pid)+"-")
		if err != nil {
			errs = append(errs, err)
			continue
		}
		dir := strings.TrimPrefix(host, root)
		if err := os.Chown(host, uid, gid); err != nil {
			os.Remove(host)
			errs = append(errs, err)
			continue
		}
		s.redir.dir = dir
		if s.cfg.Sandbox == nil {
			s.redir.hostDir = dir // the command sees envbisect's file system
		}
		return dir, nil
	}
	return "", fmt.Errorf("make the run's scratch directory in %v: %w", launch.ScratchBases(), errors.Join(errs...))
}

// fsIDs returns the file-system user and group ids of thread tid (the
// fourth field of /proc's Uid and Gid lines); 0 when unreadable.
func fsIDs(tid int) (uid, gid int) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(tid) + "/status")
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		f := strings.Fields(v)
		if !ok || len(f) < 4 {
			continue
		}
		n, _ := strconv.Atoi(f[3])
		switch k {
		case "Uid":
			uid = n
		case "Gid":
			gid = n
		}
	}
	return uid, gid
}
