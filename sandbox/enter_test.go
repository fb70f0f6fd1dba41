package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestWritesStayInTheSandbox: a script that creates, deletes, renames,
// chmods and writes files sees its own changes, and the work tree is
// byte for byte what it was afterwards.
func TestWritesStayInTheSandbox(t *testing.T) {
	inWorkNS(t, func(work string) error {
		for _, f := range []string{"keep", "gone", "old"} {
			if err := os.WriteFile(filepath.Join(work, f), []byte(f+"\n"), 0o644); err != nil {
				return err
			}
		}
		if err := os.Mkdir(filepath.Join(work, "dir"), 0o755); err != nil {
			return err
		}
		before, err := treeHash(work)
		if err != nil {
			return err
		}
		r, err := runSandboxed(Spec{}, work, `set -e
echo new > new; rm gone; mv old renamed; chmod 600 keep; echo more >> keep; mkdir dir/sub; rmdir dir/sub; rm -r dir
test -f new; test ! -e gone; test -f renamed; test ! -e old
test "$(stat -c %a keep)" = 600; test "$(cat keep)" = "keep
more"
echo ok`)
		if err != nil {
			return err
		}
		if r.code != 0 || strings.TrimSpace(r.stdout) != "ok" {
			return fmt.Errorf("script in the sandbox: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
		}
		after, err := treeHash(work)
		if err != nil {
			return err
		}
		if before != after {
			return errors.New("the work tree changed")
		}
		// And a second run sees the state the first found, not what it left.
		r, err = runSandboxed(Spec{}, work, `test -f gone && test ! -e new`)
		if err == nil && r.code != 0 {
			err = fmt.Errorf("second run: exit %d, stderr %q", r.code, r.stderr)
		}
		return err
	})
}

// TestReadOnlyBindStaysReadOnly: a read-only bind mount in the tree still
// gives EROFS, and mount flags (noexec) are kept.
func TestReadOnlyBindStaysReadOnly(t *testing.T) {
	inWorkNS(t, func(work string) error {
		src, ro, nx := filepath.Join(work, "src"), filepath.Join(work, "ro"), filepath.Join(work, "nx")
		for _, d := range []string{src, ro, nx} {
			if err := os.Mkdir(d, 0o755); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(src, "f"), []byte("#!/bin/sh\necho ran\n"), 0o755); err != nil {
			return err
		}
		if err := unix.Mount(src, ro, "", unix.MS_BIND, ""); err != nil {
			return err
		}
		if err := unix.Mount("", ro, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY, ""); err != nil {
			return err
		}
		if err := unix.Mount("nx", nx, "tmpfs", unix.MS_NOEXEC, ""); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(nx, "f"), []byte("#!/bin/sh\necho ran\n"), 0o755); err != nil {
			return err
		}
		r, err := runSandboxed(Spec{}, work, `
mkdir ro/x 2>&1 || true
./nx/f 2>&1 || true
./ro/f
grep -q " $PWD/ro " /proc/self/mountinfo && echo listed`)
		if err != nil {
			return err
		}
		if !strings.Contains(r.stdout, "Read-only file system") {
			return fmt.Errorf("mkdir in a read-only bind mount: %q, want EROFS", r.stdout)
		}
		if !strings.Contains(r.stdout, "Permission denied") {
			return fmt.Errorf("exec on a noexec mount: %q, want EACCES", r.stdout)
		}
		if !strings.Contains(r.stdout, "ran") || !strings.Contains(r.stdout, "listed") {
			return fmt.Errorf("the bind mount's content or its mount is missing: %q (stderr %q)", r.stdout, r.stderr)
		}
		return nil
	})
}

// TestPermissionsKept: a directory writable only by root refuses nobody
// inside the sandbox as it does outside.
func TestPermissionsKept(t *testing.T) {
	testutil.Require(t, testutil.Binary("setpriv"))
	inWorkNS(t, func(work string) error {
		d := filepath.Join(work, "rootonly")
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
		r, err := runSandboxed(Spec{}, work,
			`setpriv --reuid=nobody --regid=nogroup --clear-groups touch rootonly/f 2>&1; echo "exit $?"; stat -c %a .`)
		if err != nil {
			return err
		}
		if !strings.Contains(r.stdout, "Permission denied") || !strings.Contains(r.stdout, "exit 1") {
			return fmt.Errorf("touch as nobody: %q, want EACCES", r.stdout)
		}
		if !strings.Contains(r.stdout, "755") {
			return fmt.Errorf("the overlaid root's mode: %q, want the real 755", r.stdout)
		}
		return nil
	})
}

// TestPersistShares: a --persist directory is the real one.
func TestPersistShares(t *testing.T) {
	inWorkNS(t, func(work string) error {
		shared := filepath.Join(work, "db")
		if err := os.Mkdir(shared, 0o755); err != nil {
			return err
		}
		r, err := runSandboxed(Spec{Persist: []string{shared}}, work, `echo row > db/table && echo x > other`)
		if err != nil || r.code != 0 {
			return fmt.Errorf("run: %v, exit %d, %s", err, r.code, r.stderr)
		}
		if b, err := os.ReadFile(filepath.Join(shared, "table")); err != nil || string(b) != "row\n" {
			return fmt.Errorf("the persisted write: %q, %v", b, err)
		}
		if _, err := os.Stat(filepath.Join(work, "other")); !os.IsNotExist(err) {
			return fmt.Errorf("a write outside --persist survived: %v", err)
		}
		return nil
	})
}

// TestSocketsReachable: a unix socket listening in an overlaid directory
// accepts connections from inside the sandbox.
func TestSocketsReachable(t *testing.T) {
	testutil.Require(t, testutil.Binary("python3"))
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal(err)
	}
	inWorkNS(t, func(work string) error {
		sock := filepath.Join(work, "s.sock")
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		if err := unix.Bind(fd, &unix.SockaddrUnix{Name: sock}); err != nil {
			return err
		}
		if err := unix.Listen(fd, 1); err != nil {
			return err
		}
		r, err := runSandboxed(Spec{}, work, py+` -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect("s.sock"); print("connected")'`)
		if err != nil {
			return err
		}
		if !strings.Contains(r.stdout, "connected") {
			return fmt.Errorf("connect from the sandbox: exit %d, %q %q", r.code, r.stdout, r.stderr)
		}
		return nil
	})
}

// TestNothingLeftBehind: after a run, also one killed with SIGKILL in the
// middle, the namespace it came from has the same mounts as before.
func TestNothingLeftBehind(t *testing.T) {
	inWorkNS(t, func(work string) error {
		before, err := mountTable()
		if err != nil {
			return err
		}
		if _, err := runSandboxed(Spec{}, work, `echo x > f; mkdir d`); err != nil {
			return err
		}
		self, _ := os.Executable()
		cmd := exec.Command(self)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), childSpecEnv+"={}", childScriptEnv+"=echo started > started; exec sleep 100")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			return err
		}
		// The sandboxed shell writes "started" into its overlay, where this
		// namespace cannot see it: wait for the sleep instead.
		started := waitFor(func() bool {
			b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", cmd.Process.Pid))
			return strings.TrimSpace(string(b)) == "sleep"
		})
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		if !started {
			return errors.New("the sandboxed sleep did not start")
		}
		after, err := mountTable()
		if err != nil {
			return err
		}
		if before != after {
			return fmt.Errorf("mounts changed: only before %q, only after %q", lineDiff(before, after), lineDiff(after, before))
		}
		ents, err := os.ReadDir(work)
		if err != nil {
			return err
		}
		if len(ents) != 0 {
			return fmt.Errorf("left in the work tree: %v", ents)
		}
		return nil
	})
}

// TestProbe: the probe works here, overlays the root, and leaves this
// process's namespace and descriptors as they were (TestMain checks fds).
func TestProbe(t *testing.T) {
	inWorkNS(t, func(work string) error {
		before, err := mountTable()
		if err != nil {
			return err
		}
		rep, err := Probe(Spec{})
		if err != nil {
			return err
		}
		if len(rep.Overlaid) == 0 || rep.Overlaid[0] != "/" {
			return fmt.Errorf("probe overlaid %v, want / first", rep.Overlaid)
		}
		after, err := mountTable()
		if err != nil {
			return err
		}
		if after != before {
			return errors.New("the probe changed this namespace's mounts")
		}
		return nil
	})
}

// TestFileMountIsolated: a writable bind mount of one file (a container's
// /etc/hosts) is written in a copy; the real file keeps its content.
func TestFileMountIsolated(t *testing.T) {
	inWorkNS(t, func(work string) error {
		real, point := filepath.Join(work, "real"), filepath.Join(work, "hosts")
		for _, p := range []string{real, point} {
			if err := os.WriteFile(p, []byte(filepath.Base(p)+"\n"), 0o640); err != nil {
				return err
			}
		}
		if err := unix.Mount(real, point, "", unix.MS_BIND, ""); err != nil {
			return err
		}
		r, err := runSandboxed(Spec{}, work, `cat hosts; stat -c %a hosts; echo changed > hosts; cat hosts`)
		if err != nil {
			return err
		}
		if r.stdout != "real\n640\nchanged\n" {
			return fmt.Errorf("in the sandbox: %q (stderr %q)", r.stdout, r.stderr)
		}
		if b, _ := os.ReadFile(real); string(b) != "real\n" {
			return fmt.Errorf("the real file became %q", b)
		}
		return nil
	})
}
