package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// TestLeftoverDaemon: a command that starts a setsid daemon and exits.
// record and locate follow one rule: the command's exit ends the run, the
// daemon is ended with it, and they say so, naming it; --wait-children
// waits for it instead.
func TestLeftoverDaemon(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Binary("setsid"), testutil.Binary("pgrep"), testutil.Binary("pkill"))
	dir := t.TempDir()
	run := daemonRunner(t, dir)
	tr := filepath.Join(dir, "d.envb")
	code, _, errs := run(append([]string{"record", "-o", tr, "--"}, leavesDaemon...)...)
	if code != 0 || !strings.Contains(errs, leftRunningSaid) || !strings.Contains(errs, "--wait-children") {
		t.Errorf("record: exit %d, stderr %q; want 0 and %q naming --wait-children", code, errs, leftRunningSaid)
	}
	checkDaemonEnded(t, "record")

	code, _, errs = run(append([]string{"locate", tr, "--"}, leavesDaemon...)...)
	if code != 3 || strings.Count(errs, leftRunningSaid) != 1 {
		t.Errorf("locate: exit %d, stderr %q; want 3 (no failure) and %q once", code, errs, leftRunningSaid)
	}
	checkDaemonEnded(t, "locate")
	checkWaitChildren(t, run, filepath.Join(dir, "w.envb"))
}

// leavesDaemon is a command that starts a setsid daemon (sleep 301) and
// exits.
var leavesDaemon = []string{"sh", "-c", "setsid sleep 301 & echo started"}

// leftRunningSaid is the start of the warning about processes left
// running. The daemon is named by its executable: sleep, or setsid or
// dash when the command exited before its child reached its own exec.
const leftRunningSaid = "the command exited and left processes running (/usr/bin/"

// daemonRunner returns a function that runs envbisect with args in dir
// and returns its exit code, stdout and stderr; a run that lasts two
// minutes (waiting for the daemon) fails the test. The daemon is killed
// when the test ends.
func daemonRunner(t *testing.T, dir string) func(args ...string) (int, string, string) {
	t.Helper()
	eb := testutil.Envbisect(t)
	t.Cleanup(func() { exec.Command("pkill", "-KILL", "-f", "^sleep 301$").Run() })
	return func(args ...string) (int, string, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, eb, args...)
		cmd.Dir = dir
		var out, errs bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errs
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
		return code, out.String(), errs.String()
	}
}

// checkDaemonEnded fails the test when the daemon still runs after who.
func checkDaemonEnded(t *testing.T, who string) {
	t.Helper()
	if out, _ := exec.Command("pgrep", "-f", "^sleep 301$").Output(); len(out) != 0 {
		t.Errorf("%s left the daemon running: %s", who, out)
	}
}

// checkWaitChildren: with --wait-children (and flags, such as a
// backend) the run lasts until a short daemon exits, and the trace at
// path holds its exit.
func checkWaitChildren(t *testing.T, run func(args ...string) (int, string, string), path string, flags ...string) {
	t.Helper()
	args := append(append([]string{"record"}, flags...), "-q", "--wait-children", "-o", path, "--", "sh", "-c", "setsid sleep 1 & echo started")
	code, _, errs := run(args...)
	if code != 0 || strings.Contains(errs, "left processes running") {
		t.Fatalf("record --wait-children: exit %d, stderr %q", code, errs)
	}
	tf, err := tracefile.ReadFile(path)
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
