package memory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// Bounds of the peak RSS of call-level runs over a trace of calls
// calls: base, plus perCall bytes a recorded call. Both read the
// recorded calls from the trace file as they need them
// (tracefile.Store): they hold the dependency graph, each call's key
// (an index into a table of distinct keys) and a few decoded frames; the
// live calls of a run are kept only of failing runs, as a bit a call
// answered as recorded and the calls that differ. Over 64 MiB, at
// 200,000 calls, replay took 855 bytes a call, then 545 to 650, 516, 435
// to 485, and 125 reading its calls from the file; call-level locate
// 1,000, then 725 to 840, 687, 564 to 566. With the graph's per-call
// lists shrunk (docs/performance.md, fifth step) replay peaks under 64
// MiB (57.6 MiB: 134 bytes a call over 32 MiB) and locate at 87.1 MiB
// (289 bytes a call over 32 MiB); the collector's timing moves the peak
// by a tenth or more: the bounds leave room for that.
const (
	base          = 32 << 20
	replayPerCall = 180
	locatePerCall = 360
)

// TestCallLevelMemory: a command that reads its configuration and then
// makes 200,000 calls (cloop: open, read and close of one file), recorded
// with mode=good, then run here with mode=bad: `replay --prefix all`
// passes and `locate --materialize=false` names the configuration file,
// each with its peak RSS (and that of what it waited for, from its
// rusage) under its bound.
func TestCallLevelMemory(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Binary("sh"), testutil.Binary("grep"))
	const (
		iterations = 66_667 // 3 calls each
		calls      = 3 * iterations
	)
	eb := testutil.Envbisect(t)
	dir, conf, argv := testutil.ConfigThenLoop(t, iterations)
	// run runs envbisect with args and CMD, and returns its stdout, its
	// exit status and its peak RSS in bytes.
	run := func(args ...string) ([]byte, int, int64) {
		cmd := exec.Command(eb, append(args, append([]string{"--"}, argv...)...)...)
		cmd.Dir = dir
		var errb bytes.Buffer
		cmd.Stderr = &errb
		out, err := cmd.Output()
		if _, exited := err.(*exec.ExitError); err != nil && !exited {
			t.Fatalf("envbisect %s: %v\n%s", args[0], err, errb.Bytes())
		}
		if t.Failed() {
			t.Logf("envbisect %s: %s", args[0], errb.Bytes())
		}
		return out, cmd.ProcessState.ExitCode(), testutil.PeakRSS(cmd)
	}
	check := func(what string, peak int64, perCall int) {
		t.Logf("%s of %d calls: peak RSS %.1f MiB (%d bytes a call over %d MiB)", what, calls, float64(peak)/(1<<20), (peak-base)/calls, base>>20)
		if bound := int64(base + perCall*calls); peak > bound {
			t.Errorf("%s: peak RSS %d bytes; want under %d (%d MiB and %d bytes a call)", what, peak, bound, base>>20, perCall)
		}
	}
	if out, code, _ := run("record", "-q", "-o", "t.envb"); code != 0 {
		t.Fatalf("record: exit status %d\n%s", code, out)
	}
	testutil.WriteText(t, conf, "mode=bad\n")

	out, code, peak := run("replay", "t.envb", "--prefix", "all", "-q")
	want := fmt.Sprintf("cloop: %d iterations", iterations)
	if code != 0 || !strings.HasPrefix(string(out), want) || !strings.Contains(string(out), "\npass: exit status 0") {
		t.Errorf("replay --prefix all: exit status %d, output\n%s\nwant 0, %q and the pass verdict", code, out, want)
	}
	check("replay --prefix all", peak, replayPerCall)

	out, code, peak = run("locate", "--materialize=false", "-q", "--json", "t.envb")
	var r struct {
		Status  string `json:"status"`
		Message string `json:"message"`
		Culprit *struct {
			Path    string `json:"path"`
			Syscall string `json:"syscall"`
		} `json:"culprit"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("locate's report (exit status %d): %v\n%s", code, err, out)
	}
	if code != 0 || r.Status != "located" || r.Culprit == nil || r.Culprit.Path != conf {
		t.Fatalf("locate --materialize=false: exit status %d, status %q (%s), culprit %+v; want 0, located, %s", code, r.Status, r.Message, r.Culprit, conf)
	}
	check("locate --materialize=false", peak, locatePerCall)
}
