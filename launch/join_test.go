package launch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
)

// nsOf returns the inode of pid's namespace of kind name.
func nsOf(t *testing.T, pid int, name string) uint64 {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Stat(fmt.Sprintf("/proc/%d/ns/%s", pid, name), &st); err != nil {
		t.Fatal(err)
	}
	return st.Ino
}

// TestJoinUntraced starts a command through the helper into another
// process's namespaces (the eBPF backend's way, no ptrace) and checks
// what it sees: the private mount, the pid namespace (it is not pid
// 1's), the host name, and the working directory.
func TestJoinUntraced(t *testing.T) {
	testutil.Require(t, testutil.Root)
	target, dir := testutil.PrivateConf(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	u, err := Start(&Config{
		Argv: []string{"sh", "-c", `cat app.conf; echo "$$"; hostname; pwd`},
		Env:  []string{"PATH=/usr/bin:/bin"}, Dir: dir, CPU: -1,
		Join:   &trace.Join{PID: target, Name: "test namespace"},
		Stdout: w,
	})
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := nsOf(t, u.PID, "mnt"), nsOf(t, target, "mnt"); got != want {
		t.Errorf("helper's mount namespace %d before release, want the target's %d", got, want)
	}
	if err := u.Release(); err != nil {
		t.Fatal(err)
	}
	var ws unix.WaitStatus
	if _, err := unix.Wait4(u.PID, &ws, 0, nil); err != nil {
		t.Fatal(err)
	}
	if err := u.ExecError(ws.ExitStatus()); err != nil || ws.ExitStatus() != 0 {
		t.Fatalf("command: status %d, %v", ws.ExitStatus(), err)
	}
	out, _ := io.ReadAll(r)
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 4 {
		t.Fatalf("output %q: want 4 lines", out)
	}
	if lines[0] != "inside" {
		t.Errorf("app.conf reads %q in the joined namespace, want the private mount's %q", lines[0], "inside")
	}
	if lines[1] == fmt.Sprint(u.PID) || lines[1] == "1" {
		t.Errorf("the command's own pid is %s: want a pid of the target's namespace (not the host's %d, not its init)", lines[1], u.PID)
	}
	if lines[2] != "joined-test" {
		t.Errorf("hostname %q, want the target's uts namespace's %q", lines[2], "joined-test")
	}
	if lines[3] != dir {
		t.Errorf("working directory %q, want %q", lines[3], dir)
	}
}

// TestJoinErrors checks what cannot be joined: a process that does not
// exist, one in another user namespace, a command not in the target's
// PATH.
func TestJoinErrors(t *testing.T) {
	testutil.Require(t, testutil.Root)
	userns := testutil.Unshare(t, []string{"--user", "--map-root-user"}, "true")
	mntns, _ := testutil.PrivateConf(t)
	cases := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no such process", Config{Argv: []string{"true"}, Join: &trace.Join{PID: 1 << 30}}, "the process is gone"},
		{"user namespace", Config{Argv: []string{"true"}, Join: &trace.Join{PID: userns}}, ErrForeignUserNS.Error()},
		{"not in PATH", Config{Argv: []string{"no-such-command-xyz"}, Env: []string{"PATH=/bin"}, Join: &trace.Join{PID: mntns}},
			"no-such-command-xyz: command not found in PATH=/bin"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.CPU = -1
			u, err := Start(&tc.cfg)
			if err == nil {
				u.Release()
				var ws unix.WaitStatus
				unix.Wait4(u.PID, &ws, 0, nil)
				err = u.ExecError(ws.ExitStatus())
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
			var ee *ExecError
			if tc.name == "not in PATH" && (!errors.As(err, &ee) || ee.Code != 127) {
				t.Errorf("error %#v, want an ExecError of code 127", err)
			}
		})
	}
}
