package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/ptrace"
	"github.com/envbisect/envbisect/tracefile"
)

// ignoringCommand ignores SIGINT and SIGTERM, and so does the sleep it
// runs (an ignored disposition survives exec).
var ignoringCommand = []string{"sh", "-c", `trap "" INT TERM; sleep 103`}

// startInterrupted starts envbisect with args in a process group of its
// own, sends it one SIGINT once the command runs, and waits for it to end: a
// command that ignores SIGINT and SIGTERM must not keep it running past
// the grace period (SIGTERM after ptrace.InterruptGrace, SIGKILL after as
// long again). The bound below is that plus slack for a loaded machine;
// it turns a hang into a failure rather than timing anything. No process
// whose command line matches the pgrep pattern leftover may survive.
func startInterrupted(t *testing.T, leftover string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(testutil.Envbisect(t), args...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The SIGINT goes once the command runs (leftover matches it): a
	// fixed pause is too short on a loaded machine, where the eBPF
	// backend's probe can take seconds to load.
	for start := time.Now(); ; time.Sleep(100 * time.Millisecond) {
		if running, _ := exec.Command("pgrep", "-f", leftover).Output(); len(running) != 0 {
			break
		}
		if time.Since(start) > time.Minute {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
			t.Fatalf("envbisect %s: the command did not start within a minute", args[0])
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(2*ptrace.InterruptGrace + 30*time.Second):
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		exec.Command("pkill", "-KILL", "-f", leftover).Run()
		t.Fatalf("envbisect %s ran on after one SIGINT", args[0])
	}
	if left, _ := exec.Command("pgrep", "-f", leftover).Output(); len(left) != 0 {
		exec.Command("pkill", "-KILL", "-f", leftover).Run()
		t.Errorf("processes left behind: %s", left)
	}
	// Nothing of envbisect's process group either (workers, helpers): a
	// process killed at the end may take a moment to be reaped by init,
	// so the group gets a bound, not a pause, to empty.
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		left, _ := exec.Command("pgrep", "-g", strconv.Itoa(cmd.Process.Pid)).Output()
		if len(left) == 0 {
			break
		}
		if time.Since(start) > 10*time.Second {
			ps, _ := exec.Command("pgrep", "-a", "-g", strconv.Itoa(cmd.Process.Pid)).CombinedOutput()
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			t.Errorf("processes of envbisect's group left behind:\n%s", ps)
			break
		}
	}
	return cmd.ProcessState.ExitCode(), out.String(), errs.String()
}

// TestInterruptEndsIgnoringCommand: one SIGINT ends record and locate of
// a command that ignores SIGINT and SIGTERM; record keeps the trace up to
// then, and locate names no culprit.
func TestInterruptEndsIgnoringCommand(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Binary("sleep"), testutil.Binary("pgrep"), testutil.Binary("pkill"))
	dir := t.TempDir()
	tr := filepath.Join(dir, "i.envb")

	code, _, errs := startInterrupted(t, "^sleep 103$", append([]string{"record", "-q", "-o", tr, "--"}, ignoringCommand...)...)
	if code != 128+int(syscall.SIGKILL) {
		t.Errorf("record: exit %d, want %d (the command killed at the end of the grace period); stderr %q", code, 128+int(syscall.SIGKILL), errs)
	}
	got, err := tracefile.ReadFile(tr)
	if err != nil || got.End == nil || !got.End.Interrupted {
		t.Fatalf("record's trace after the interrupt: %v, end %+v; want a complete trace marked interrupted", err, got.End)
	}

	good := filepath.Join(dir, "good.envb")
	if out, err := exec.Command(testutil.Envbisect(t), append([]string{"record", "-q", "-o", good, "--alive", "300ms", "--"}, ignoringCommand...)...).CombinedOutput(); err != nil {
		t.Fatalf("record --alive: %v\n%s", err, out)
	}
	code, out, errs := startInterrupted(t, "^sleep 103$", append([]string{"locate", good, "--alive", "60s", "--"}, ignoringCommand...)...)
	if code != exitError || !strings.Contains(errs, "interrupted: no culprit") || out != "" {
		t.Errorf("locate: exit %d, stdout %q, stderr %q; want 1, nothing on stdout and 'interrupted: no culprit'", code, out, errs)
	}
}
