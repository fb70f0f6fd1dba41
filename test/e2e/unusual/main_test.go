// Package unusual_test runs envbisect on programs whose recording would
// otherwise be silently wrong (issue 20, deliver 5): 32-bit system calls
// (refused, naming the process), io_uring (warned at record time, listed
// in locate's report), a setuid program run without its privilege (the
// notice names the binary) and a command that uses ptrace itself (strace:
// the nested-ptrace notice).
package unusual_test

import (
	"bytes"
	"os"
	"os/exec"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }

// run runs envbisect with args and returns its exit code, stdout and
// stderr.
func run(t *testing.T, eb string, args ...string) (int, string, string) {
	t.Helper()
	return runCmd(t, exec.Command(eb, args...))
}

// runCmd runs cmd and returns its exit code, stdout and stderr.
func runCmd(t *testing.T, cmd *exec.Cmd) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%v: %v", cmd.Args, err)
	}
	t.Logf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", cmd.Args, code, out.String(), errb.String())
	return code, out.String(), errb.String()
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
