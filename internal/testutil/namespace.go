package testutil

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Unshare starts a process in namespaces of its own, as
//
//	unshare FLAGS... --fork sh -c 'SETUP && exec sleep 3600'
//
// (util-linux), waits until SETUP is done (the shell has become sleep)
// and returns the sleeping process's pid in this pid namespace: a target
// for --pid. flags are unshare's, such as --mount --pid --mount-proc. The
// processes are killed and reaped when the test ends.
func Unshare(t testing.TB, flags []string, setup string) int {
	t.Helper()
	Require(t, Root, Binary("unshare"), File("/bin/sh"), Binary("sleep"))
	args := append(append([]string{}, flags...), "--fork", "/bin/sh", "-c", setup+" && exec sleep 3600")
	cmd := exec.Command("unshare", args...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("unshare %v: %v", args, err)
	}
	t.Cleanup(func() {
		if pid := childOf(cmd.Process.Pid); pid > 0 {
			syscall.Kill(pid, syscall.SIGKILL) // the namespace's init: its death ends unshare
		}
		cmd.Process.Kill()
		cmd.Wait()
	})
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if pid := childOf(cmd.Process.Pid); pid > 0 {
			if comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); strings.TrimSpace(string(comm)) == "sleep" {
				return pid
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("unshare %s: the namespace's shell did not get to sleep within 10s (did %q fail? see stderr)", strings.Join(flags, " "), setup)
	return 0
}

// childOf returns the first child of pid found in /proc, or 0.
func childOf(pid int) int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if _, _, ppid, ok := readStat(filepath.Join("/proc", e.Name(), "stat")); ok && ppid == pid {
			return n
		}
	}
	return 0
}

// PrivateConf starts a process in mount, pid and uts namespaces of its
// own in which a tmpfs hides a temporary directory's app.conf ("host")
// behind another ("inside"), with the hostname joined-test, and returns
// its pid and the directory: a target whose file system view differs
// from the test's.
func PrivateConf(t testing.TB) (int, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.conf"), []byte("host\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pid := Unshare(t, []string{"--mount", "--pid", "--uts", "--mount-proc"},
		fmt.Sprintf("mount -t tmpfs none %[1]s && echo inside >%[1]s/app.conf && hostname joined-test && cd %[1]s", dir))
	return pid, dir
}
