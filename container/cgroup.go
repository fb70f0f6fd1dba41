package container

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/envbisect/envbisect/internal/mountinfo"
)

// findCgroup fills in t's cgroup v2 path, directory and id from
// /proc/PID/cgroup and this host's cgroup2 mount. A host without cgroup
// v2 leaves them empty.
func (t *Target) findCgroup() error {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", t.PID))
	if err != nil {
		return procError(t.PID, "read its cgroups", err)
	}
	t.Cgroup = cgroupV2Path(b)
	if t.Cgroup == "" {
		return nil
	}
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return fmt.Errorf("find the cgroup2 mount: %w", err)
	}
	mnt, root, ok := cgroup2Mount(mi)
	if !ok {
		return nil
	}
	dir, ok := cgroupDir(mnt, root, t.Cgroup)
	if !ok {
		return nil
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil // not visible here: the eBPF filter and CLONE_INTO_CGROUP go without
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		t.CgroupDir, t.CgroupID = dir, st.Ino
	}
	return nil
}

// cgroupV2Path returns the path of the unified hierarchy's line ("0::")
// of a /proc/PID/cgroup file, or "".
func cgroupV2Path(b []byte) string {
	for _, line := range strings.Split(string(b), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			return p
		}
	}
	return ""
}

// cgroup2Mount returns where the cgroup2 filesystem is mounted, and the
// cgroup path its root is, from /proc/self/mountinfo.
func cgroup2Mount(table []byte) (mnt, root string, ok bool) {
	ms, err := mountinfo.Parse(bytes.NewReader(table))
	if err != nil {
		return "", "", false
	}
	for _, m := range ms {
		if m.FSType == "cgroup2" {
			return m.Point, m.Root, true
		}
	}
	return "", "", false
}

// cgroupDir returns the directory of cgroup path under a cgroup2 mount at
// mnt whose root is the cgroup root.
func cgroupDir(mnt, root, path string) (string, bool) {
	root = strings.TrimSuffix(root, "/")
	if root != "" && path != root && !strings.HasPrefix(path, root+"/") {
		return "", false
	}
	return filepath.Join(mnt, strings.TrimPrefix(path, root)), true
}
