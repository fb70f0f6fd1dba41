package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

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
	eb := testutil.Envbisect(t)
	dir := t.TempDir()
	defer exec.Command("pkill", "-KILL", "-f", "^sleep 301$").Run()
	// The deadline turns a wait for the daemon into a failure.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	run := func(args ...string) (int, string) {
		cmd := exec.CommandContext(ctx, eb, args...)
		var errs bytes.Buffer
		cmd.Stderr = &errs
		err := cmd.Run()
		if ctx.Err() != nil {
			t.Fatalf("envbisect %s waited for the daemon", args[0])
		}
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, errs.String()
	}
	// sleep, or setsid or dash when the command exited before its child
	// reached its own exec.
	const said = "the command exited and left processes running (/usr/bin/"

	tr := filepath.Join(dir, "d.envb")
	code, errs := run("record", "--backend", "ebpf", "-o", tr, "--", "sh", "-c", "setsid sleep 301 & echo started")
	if code != 0 || strings.Count(errs, said) != 1 || !strings.Contains(errs, "--wait-children") {
		t.Errorf("record: exit %d, stderr %q; want 0 and %q once, naming --wait-children", code, errs, said)
	}
	if out, _ := exec.Command("pgrep", "-f", "^sleep 301$").Output(); len(out) != 0 {
		t.Errorf("record left the daemon running: %s", out)
	}
	if tf, err := tracefile.ReadFile(tr); err != nil || tf.End == nil || tf.End.ExitCode != 0 {
		t.Errorf("the trace: %v; want a complete trace of the command's exit 0", err)
	}

	waited := filepath.Join(dir, "w.envb")
	code, errs = run("record", "--backend", "ebpf", "-q", "--wait-children", "-o", waited, "--", "sh", "-c", "setsid sleep 1 & echo started")
	if code != 0 || strings.Contains(errs, "left processes running") {
		t.Fatalf("record --wait-children: exit %d, stderr %q", code, errs)
	}
	tf, err := tracefile.ReadFile(waited)
	if err != nil {
		t.Fatal(err)
	}
	exits := 0
	for _, ev := range tf.Events {
		if p := ev.Proc; p != nil && p.Kind == trace.Exit && p.Signal == 0 {
			exits++
		}
	}
	if exits != 2 {
		t.Errorf("record --wait-children: %d processes exited by themselves, want 2 (sh and the daemon)", exits)
	}
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
