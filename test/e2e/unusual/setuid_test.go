package unusual_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// asNobody is setpriv's prefix that runs a command as nobody.
var asNobody = []string{"setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups"}

const passwdNotice = "/usr/bin/passwd is set-user-ID uid 0 but runs as uid 65534 under envbisect"

// TestSetuidWithoutPrivilegeReported: envbisect run by nobody (no
// CAP_SYS_PTRACE) records `passwd -S`, set-user-ID root: the kernel
// withholds the privilege from a traced program, passwd runs as nobody,
// and record says so once, naming /usr/bin/passwd.
func TestSetuidWithoutPrivilegeReported(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp,
		testutil.Binary("setpriv"), testutil.File("/usr/bin/passwd"))
	if fi, err := os.Stat("/usr/bin/passwd"); err != nil || fi.Mode()&os.ModeSetuid == 0 {
		t.Fatalf("/usr/bin/passwd is not set-user-ID here: %v", err)
	}
	dir := openDir(t)
	eb := filepath.Join(dir, "envbisect")
	copyFile(t, testutil.Envbisect(t), eb)
	cmd := exec.Command(asNobody[0], append(asNobody[1:], eb, "record", "-o", filepath.Join(dir, "p.envb"), "--", "passwd", "-S")...)
	_, _, stderr := runCmd(t, cmd)
	if n := strings.Count(stderr, passwdNotice); n != 1 {
		t.Errorf("%d setuid notices, want one: %q", n, passwdNotice)
	}
}

// TestSetuidHonouredNotReported: root's envbisect traces nobody running
// `passwd -S`: the tracer has CAP_SYS_PTRACE, so the kernel honours the
// set-user-ID bit (passwd reads /etc/shadow), and nothing is reported.
func TestSetuidHonouredNotReported(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp,
		testutil.Binary("setpriv"), testutil.File("/usr/bin/passwd"))
	eb := testutil.Envbisect(t)
	out := filepath.Join(t.TempDir(), "p.envb")
	_, _, stderr := run(t, eb, append(append([]string{"record", "-o", out, "--"}, asNobody...), "passwd", "-S")...)
	if strings.Contains(stderr, "set-user-ID") {
		t.Errorf("a notice although the privilege was honoured")
	}
	_, shown, _ := run(t, eb, "show", out)
	if !strings.Contains(shown, `"/etc/shadow", O_RDONLY|O_CLOEXEC) = 3`) {
		t.Errorf("passwd did not open /etc/shadow: it ran without its privilege")
	}
}

// openDir returns a temporary directory nobody may write to and read.
func openDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	// The parents t.TempDir makes are 0700: nobody must reach dir.
	for p := filepath.Dir(dir); p != os.TempDir() && p != "/"; p = filepath.Dir(p) {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// copyFile copies the executable src to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
