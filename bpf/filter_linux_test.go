//go:build linux && amd64

package bpf

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestFilterCgroup: with FilterCgroup, a process in the cgroup is
// recorded and one outside is not.
func TestFilterCgroup(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF)
	cg := makeCgroup(t)
	bin := buildVictim(t)
	p := loadProbe(t, Options{Filter: Filter{Kind: FilterCgroup, Cgroup: cg.id}, RingSize: 1 << 20})

	inside := startVictim(t, bin, "open", "/envbisect-bpf-test/inside")
	outside := startVictim(t, bin, "open", "/envbisect-bpf-test/outside")
	if err := os.WriteFile(cg.dir+"/cgroup.procs", fmt.Appendf(nil, "%d\n", inside.pid), 0); err != nil {
		t.Fatal(err)
	}
	outside.release(t)
	outside.wait(t)
	inside.release(t)
	recs := collect(t, p, inside.pid)
	inside.wait(t)

	calls := assemble(t, recs)
	if len(find(calls, unix.SYS_OPENAT, hasPath("/envbisect-bpf-test/inside"))) != 1 {
		t.Errorf("the process in the cgroup: its openat was not recorded")
	}
	if len(find(calls, unix.SYS_OPENAT, hasPath("/envbisect-bpf-test/outside"))) != 0 {
		t.Errorf("the process outside the cgroup was recorded")
	}
	for _, r := range recs {
		if (r.Call != nil && r.Call.TGID == outside.pid) || (r.Exit != nil && r.Exit.TGID == outside.pid) {
			t.Errorf("a record of the process outside the cgroup: %+v", r)
			break
		}
	}
}

type cgroup struct {
	dir string
	id  uint64
}

// makeCgroup creates a cgroup v2 for the test and removes it at the end.
func makeCgroup(t *testing.T) cgroup {
	t.Helper()
	root := cgroup2Mount()
	if root == "" {
		if os.Getenv(testutil.NoSkipEnv) != "" {
			t.Fatalf("no cgroup v2 hierarchy mounted, and %s is set", testutil.NoSkipEnv)
		}
		t.Skip("skipped: needs a cgroup v2 hierarchy mounted")
	}
	dir := fmt.Sprintf("%s/envbisect-bpf-test-%d", root, os.Getpid())
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// The processes in it have exited; rmdir fails while it has any.
		for i := 0; i < 50; i++ {
			if err := unix.Rmdir(dir); err == nil || errors.Is(err, unix.ENOENT) {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Errorf("could not remove cgroup %s", dir)
	})
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		t.Fatal(err)
	}
	return cgroup{dir: dir, id: st.Ino}
}

// cgroup2Mount returns where the cgroup v2 hierarchy is mounted
// (/sys/fs/cgroup, or /sys/fs/cgroup/unified on hybrid systems).
func cgroup2Mount() string {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		// id parent major:minor root mountpoint options ... - fstype source super
		pre, post, ok := bytes.Cut(line, []byte(" - "))
		if !ok || !bytes.HasPrefix(post, []byte("cgroup2 ")) {
			continue
		}
		if f := bytes.Fields(pre); len(f) >= 5 {
			return string(f[4])
		}
	}
	return ""
}
