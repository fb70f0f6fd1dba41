package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// TestLeftoverDaemonEBPF: record --backend ebpf follows the rule of the
// ptrace backend and of locate (TestLeftoverDaemon): the command's exit
// ends the recording, the setsid daemon it left is ended with it and
// named in the same warning; --wait-children waits for it instead.
func TestLeftoverDaemonEBPF(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF, testutil.Binary("setsid"), testutil.Binary("pgrep"), testutil.Binary("pkill"))
	dir := t.TempDir()
	run := daemonRunner(t, dir)
	tr := filepath.Join(dir, "d.envb")
	code, _, errs := run(append([]string{"record", "--backend", "ebpf", "-o", tr, "--"}, leavesDaemon...)...)
	if code != 0 || strings.Count(errs, leftRunningSaid) != 1 || !strings.Contains(errs, "--wait-children") {
		t.Errorf("record: exit %d, stderr %q; want 0 and %q once, naming --wait-children", code, errs, leftRunningSaid)
	}
	checkDaemonEnded(t, "record")
	if tf, err := tracefile.ReadFile(tr); err != nil || tf.End == nil || tf.End.ExitCode != 0 {
		t.Errorf("the trace: %v; want a complete trace of the command's exit 0", err)
	}
	checkWaitChildren(t, run, filepath.Join(dir, "w.envb"), "--backend", "ebpf")
}

// TestInterruptEndsIgnoringCommandEBPF: one SIGINT ends record --backend
// ebpf of a command that ignores SIGINT and SIGTERM within the grace
// (TestInterruptEndsIgnoringCommand), and the trace up to then is kept,
// complete and marked interrupted.
func TestInterruptEndsIgnoringCommandEBPF(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF, testutil.Binary("sleep"), testutil.Binary("pgrep"), testutil.Binary("pkill"))
	tr := filepath.Join(t.TempDir(), "i.envb")
	code, _, errs := startInterrupted(t, "^sleep 103$", append([]string{"record", "--backend", "ebpf", "-q", "-o", tr, "--"}, ignoringCommand...)...)
	if code != 128+int(syscall.SIGKILL) {
		t.Errorf("record: exit %d, want %d (the command killed at the end of the grace period); stderr %q", code, 128+int(syscall.SIGKILL), errs)
	}
	if strings.Contains(errs, "left processes running") {
		t.Errorf("the processes the interrupt ended are reported as left running: %q", errs)
	}
	got, err := tracefile.ReadFile(tr)
	if err != nil || got.End == nil || !got.End.Interrupted {
		t.Fatalf("record's trace after the interrupt: %v; want a complete trace marked interrupted", err)
	}
	if got.Header.Backend != trace.BackendEBPF {
		t.Errorf("trace backend %v, want ebpf", got.Header.Backend)
	}
	slept := false
	for _, ev := range got.Events {
		if p := ev.Proc; p != nil && p.Kind == trace.Exec && strings.HasSuffix(p.Exe, "/sleep") {
			slept = true
		}
	}
	if !slept {
		t.Errorf("the trace does not hold the exec of sleep, made before the interrupt")
	}
}
