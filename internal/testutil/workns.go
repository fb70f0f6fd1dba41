package testutil

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"
)

// workPrelude starts every InWorkNS script: a tmpfs work tree on $W in the
// test's own mount namespace (unshare --mount: the host never sees it),
// with the directories good/ and bad/, and tree_hash, which hashes names,
// modes, owners, sizes, link targets and contents under a directory.
const workPrelude = `set -e
mount -t tmpfs work "$W"
cd "$W"
mkdir good bad
tree_hash() {
	( cd "$1" && find . -printf '%p %m %u %g %s %l\n' | sort && find . -type f -print0 | sort -z | xargs -0 -r sha256sum ) | sha256sum
}
`

// ScriptTimeoutEnv overrides how long one InWorkNS script may run (a Go
// duration, "10m"); DefaultScriptTimeout otherwise.
const ScriptTimeoutEnv = "ENVBISECT_TEST_SCRIPT_TIMEOUT"

// DefaultScriptTimeout bounds one InWorkNS script: a hung script fails its
// test with its output instead of stopping the whole package at go test's
// -timeout with nothing but a goroutine dump.
const DefaultScriptTimeout = 10 * time.Minute

// pipeGrace is how long Wait waits for the script's output pipe after the
// script has exited: a process it left behind may hold the pipe open.
const pipeGrace = 10 * time.Second

// InWorkNS runs script as root with sh in a mount namespace of its own,
// after a prelude that mounts a tmpfs work tree on $W and makes good/ and
// bad/ in it (the environments a test builds, with bind mounts over
// system paths where it needs them: the host never sees them). $EB is
// the envbisect binary, $OUT a directory on the host for results, which
// InWorkNS returns. The script's output is logged; a failing script
// fails the test.
//
// The script runs in a process group of its own. When it runs longer than
// ScriptTimeout (or past the test's deadline), the whole group is killed
// and the test fails with the output so far; when it exits but a process
// it left behind keeps its output open, that process's group is killed
// and the test fails naming it: neither can hang the test binary.
func InWorkNS(t *testing.T, script string) string {
	t.Helper()
	Require(t, Root, Ptrace, Binary("unshare"), Binary("sha256sum"), File("/bin/sh"))
	eb := Envbisect(t)
	out := t.TempDir()
	runWorkScript(t, script, "EB="+eb, "W="+t.TempDir(), "OUT="+out)
	return out
}

// runWorkScript runs the prelude and script under unshare with env added
// to this process's environment, in a process group of its own, bounded
// by ScriptTimeout, and fails t if it fails or hangs.
func runWorkScript(t *testing.T, script string, env ...string) {
	t.Helper()
	limit := ScriptTimeout(t)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", workPrelude+script)
	cmd.Env = append(os.Environ(), env...)
	var buf lockedBuffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = pipeGrace
	err := cmd.Run()
	// The script ended on its own (it was not killed by the timeout), but
	// Run waited for its output past pipeGrace or the deadline: a process
	// it left behind holds the pipe.
	exited := cmd.ProcessState != nil && cmd.ProcessState.Exited()
	leftover := exited && (errors.Is(err, exec.ErrWaitDelay) || ctx.Err() != nil)
	timedOut := !exited && ctx.Err() != nil
	if leftover || timedOut {
		killGroup(cmd) // what is left of the script's processes
	}
	t.Logf("script output:\n%s", buf.Bytes())
	switch {
	case timedOut:
		t.Fatalf("script: still running after %v (%s): killed its process group; the output so far is above", limit, ScriptTimeoutEnv)
	case leftover:
		t.Fatalf("script: exited (%v), but a process it left behind kept its output open: killed its process group", cmd.ProcessState)
	case err != nil:
		t.Fatalf("script: %v", err)
	}
}

// ScriptTimeout is how long an InWorkNS script of t may run:
// $ENVBISECT_TEST_SCRIPT_TIMEOUT or DefaultScriptTimeout, and never past
// 30 seconds before t's deadline (go test -timeout), so that the test
// still fails on its own with the output.
func ScriptTimeout(t *testing.T) time.Duration {
	limit := DefaultScriptTimeout
	if v := os.Getenv(ScriptTimeoutEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			t.Fatalf("%s=%q: want a positive Go duration such as 10m", ScriptTimeoutEnv, v)
		}
		limit = d
	}
	if deadline, ok := t.Deadline(); ok {
		if left := time.Until(deadline) - 30*time.Second; left < limit {
			limit = max(left, time.Second)
		}
	}
	return limit
}

// killGroup SIGKILLs the process group the script leads (Setpgid).
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil && err != syscall.ESRCH {
		return fmt.Errorf("kill process group %d: %w", cmd.Process.Pid, err)
	}
	return nil
}

// lockedBuffer collects the script's stdout and stderr, written by
// os/exec's copying goroutine, and read once Run has returned (or given
// up on the pipe).
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}
