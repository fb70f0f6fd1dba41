package replay

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/verdict"
)

// TestGeneratedNameMatched: a shell script makes a temporary file with
// mktemp (a random name: open O_CREAT|O_EXCL), writes it, reads it back
// with cat and removes it. Replayed, every live name differs from the
// recorded one, yet each recorded call on the recorded name is matched
// by the live call on the live name, in mktemp, in the shell and in cat
// (three processes: the mapping is the run's), none is extra, and the
// run passes printing what it wrote.
func TestGeneratedNameMatched(t *testing.T) {
	testutil.Require(t, testutil.Binary("mktemp"), testutil.Binary("cat"), testutil.Binary("rm"))
	script := `f=$(mktemp -p "$PWD" gen.XXXXXXXX); echo data > "$f"; cat "$f"; rm "$f"`
	good := t.TempDir()
	rec := recordRun(t, good, "/bin/sh", "-c", script)
	var name string
	for _, c := range rec.Graph.Calls() {
		if strings.HasPrefix(c.Path, filepath.Join(good, "gen.")) {
			name = c.Path
			break
		}
	}
	onName := callsOn(rec, name)
	if name == "" || len(onName) < 4 {
		t.Fatalf("the trace has %d calls on the temporary file %q, want mktemp's open, the shell's, cat's and the unlink", len(onName), name)
	}
	res, out := replayRun(t, rec, good, all, "/bin/sh", "-c", script)
	if res.Verdict != verdict.Pass || strings.TrimSpace(out) != "data" {
		t.Errorf("verdict %s (%s), output %q; want a pass printing data", res.Verdict, res.Detail, out)
	}
	matched := map[uint64]bool{}
	for _, c := range res.Calls {
		matched[c.Seq] = true
		if strings.Contains(c.Path, "/gen.") && c.Seq == 0 {
			t.Errorf("live call %d %s %s: %s (recorded call %d), want a call on a new name matched to a recorded one",
				c.LiveSeq, c.Syscall, c.Path, c.Action, c.Seq)
		}
	}
	for seq := range onName {
		if !matched[seq] {
			t.Errorf("recorded call %d on %s: no live call matched it", seq, name)
		}
	}
	for _, d := range res.Divergences {
		if strings.Contains(d.Got, "/gen.") || strings.Contains(d.Expected, "/gen.") {
			t.Errorf("divergence %s", d)
		}
	}
}
