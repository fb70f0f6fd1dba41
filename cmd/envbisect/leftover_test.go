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
	eb := testutil.Envbisect(t)
	dir := t.TempDir()
	daemon := []string{"sh", "-c", "setsid sleep 301 & echo started"}
	defer exec.Command("pkill", "-KILL", "-f", "^sleep 301$").Run()
	// The deadline turns a wait for the daemon into a failure.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	run := func(args ...string) (int, string, string) {
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
	left := func(who string) {
		t.Helper()
		if out, _ := exec.Command("pgrep", "-f", "^sleep 301$").Output(); len(out) != 0 {
			t.Errorf("%s left the daemon running: %s", who, out)
		}
	}
	// The daemon is named by its executable: sleep, or dash when sh
	// exited before its forked child reached the exec.
	const said = "the command exited and left processes running (/usr/bin/"

	tr := filepath.Join(dir, "d.envb")
	code, _, errs := run(append([]string{"record", "-o", tr, "--"}, daemon...)...)
	if code != 0 || !strings.Contains(errs, said) || !strings.Contains(errs, "--wait-children") {
		t.Errorf("record: exit %d, stderr %q; want 0 and %q naming --wait-children", code, errs, said)
	}
	left("record")

	code, _, errs = run(append([]string{"locate", tr, "--"}, daemon...)...)
	if code != 3 || strings.Count(errs, said) != 1 {
		t.Errorf("locate: exit %d, stderr %q; want 3 (no failure) and %q once", code, errs, said)
	}
	left("locate")

	// --wait-children: the run lasts until the daemon exits, and the
	// trace holds its exit.
	waited := filepath.Join(dir, "w.envb")
	code, _, errs = run("record", "-q", "--wait-children", "-o", waited, "--", "sh", "-c", "setsid sleep 1 & echo started")
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
