package materialize

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestMaterializeMemory: locate --materialize's memory does not grow with
// the trace (issue 29). A command that reads its configuration and then
// makes 200,000 calls (cloop: open, read and close of one file) is
// recorded with mode=good and located with mode=bad; the peak RSS of
// locate and what it waited for (the runs, from its rusage) must stay
// under 64 MiB and 200 bytes a call: holding the trace whole took more
// than 1 KiB a call. The search itself holds no call; the traced run that
// describes the cause builds the dependency graph and reads the calls
// from the trace file (88.5 MiB measured: 123 bytes a call over 64 MiB;
// 215 MiB at 1,000,223 calls, docs/performance.md). The cause is the
// configuration file.
func TestMaterializeMemory(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Binary("sh"), testutil.Binary("grep"))
	const (
		iterations = 66_667 // 3 calls each
		calls      = 3 * iterations
		base       = 64 << 20
		perCall    = 200
	)
	eb := testutil.Envbisect(t)
	dir, conf, argv := testutil.ConfigThenLoop(t, iterations)
	run := func(args ...string) (*exec.Cmd, []byte) {
		cmd := exec.Command(eb, append(args, append([]string{"--"}, argv...)...)...)
		cmd.Dir = dir
		var errb bytes.Buffer
		cmd.Stderr = &errb
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("envbisect %s: %v\n%s%s", args[0], err, out, errb.Bytes())
		}
		return cmd, out
	}
	run("record", "-q", "-o", "t.envb")
	testutil.WriteText(t, conf, "mode=bad\n")
	cmd, out := run("locate", "--materialize", "-q", "--json", "t.envb")
	var r report
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("locate's report: %v\n%s", err, out)
	}
	if r.Status != "located" || r.Mechanism != "materialized" || r.Objects == nil || len(r.Objects.Causes) != 1 || r.Objects.Causes[0].Path != conf {
		t.Fatalf("status %q, mechanism %q (%s); want located by the object search, %s alone", r.Status, r.Mechanism, r.Message, conf)
	}
	peak := testutil.PeakRSS(cmd)
	t.Logf("locate --materialize of %d calls: peak RSS %.1f MiB", calls, float64(peak)/(1<<20))
	if bound := int64(base + perCall*calls); peak > bound {
		t.Errorf("peak RSS %d bytes; want under %d (64 MiB and %d bytes a call)", peak, bound, perCall)
	}
}
