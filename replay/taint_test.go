package replay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/verdict"
)

// scriptDir makes a directory holding script s with content body.
func scriptDir(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestTaintVacuousPass: sh runs a script that runs cat where it was
// recorded; here the script is empty, sh exits 0 without starting cat:
// the run passes, and is tainted by the recorded process that never
// started.
func TestTaintVacuousPass(t *testing.T) {
	good := scriptDir(t, "cat s >/dev/null\n")
	rec := recordRun(t, good, "/bin/sh", "s")
	bad := scriptDir(t, "")
	res, out := replayRun(t, rec, bad, func(uint64) bool { return false }, "/bin/sh", "s")
	if res.Verdict != verdict.Pass {
		t.Fatalf("verdict %s (%s), want pass; output:\n%s", res.Verdict, res.Detail, out)
	}
	if len(res.Taints) != 1 || res.Taints[0].Kind != "skipped-process" ||
		!strings.Contains(res.Taints[0].Why, "1 recorded processes never started (of [2] /usr/bin/cat)") {
		t.Errorf("taints %+v, want the cat process that never started", res.Taints)
	}
}

// TestTaintNoneWhenTheWorkHappens: the same script here: the run passes,
// cat ran twice, and nothing taints it, though each cat's execve ran
// before its process could be told from the other.
func TestTaintNoneWhenTheWorkHappens(t *testing.T) {
	const script = "cat s >/dev/null\ncat s >/dev/null\n"
	good := scriptDir(t, script)
	rec := recordRun(t, good, "/bin/sh", "s")
	res, out := replayRun(t, rec, scriptDir(t, script), func(uint64) bool { return false }, "/bin/sh", "s")
	if res.Verdict != verdict.Pass || len(res.Taints) != 0 {
		t.Errorf("verdict %s (%s), taints %+v; want an untainted pass; output:\n%s", res.Verdict, res.Detail, res.Taints, out)
	}
}

// TestTaintFailNotSkippedWork: a run that fails is not tainted by the
// work it skipped: the failure is its own.
func TestTaintFailNotSkippedWork(t *testing.T) {
	good := scriptDir(t, "cat s >/dev/null\n")
	rec := recordRun(t, good, "/bin/sh", "s")
	res, out := replayRun(t, rec, scriptDir(t, "exit 3\n"), func(uint64) bool { return false }, "/bin/sh", "s")
	if res.Verdict != verdict.Fail || len(res.Taints) != 0 {
		t.Errorf("verdict %s (%s), taints %+v; want an untainted fail; output:\n%s", res.Verdict, res.Detail, res.Taints, out)
	}
}

// TestReachThreshold: a pass is tainted as "unreached" when less than
// half of the recorded calls of the processes that ended by themselves
// were reached and at least minUnreached were not; on the other side of
// either bound it is not.
func TestReachThreshold(t *testing.T) {
	for _, c := range []struct {
		name string
		r    reach
		want bool
	}{
		{"an empty script run instead of a long one", reach{reached: 40, recorded: 940}, true},
		{"just under half", reach{reached: 499, recorded: 1000}, true},
		{"half", reach{reached: 500, recorded: 1000}, false},
		{"the good path, a polling loop shorter", reach{reached: 930, recorded: 1000}, false},
		{"under half of a small recording, fewer than the floor unreached", reach{reached: 10, recorded: 10 + minUnreached - 1}, false},
		{"under half, the floor unreached", reach{reached: 10, recorded: 10 + minUnreached}, true},
		{"nothing that ended by itself", reach{}, false},
	} {
		if got := c.r.tainted(); got != c.want {
			t.Errorf("%s: %+v tainted %v, want %v", c.name, c.r, got, c.want)
		}
	}
}

// lines is a script of n lines that each make calls in the shell's own
// process (a redirection: open, dup, write, close), no child.
func lines(n int) string {
	return strings.Repeat("echo x >/dev/null\n", n)
}

// TestTaintUnreached: sh ran 150 redirections where it was recorded,
// all in its own process; here the script is empty: sh exits 0 after
// its start-up, having reached a small part of the recording, and the
// pass is tainted "unreached" (no process was skipped, no stand-in met).
func TestTaintUnreached(t *testing.T) {
	rec := recordRun(t, scriptDir(t, lines(150)), "/bin/sh", "s")
	res, out := replayRun(t, rec, scriptDir(t, ""), func(uint64) bool { return false }, "/bin/sh", "s")
	if res.Verdict != verdict.Pass {
		t.Fatalf("verdict %s (%s), want pass; output:\n%s", res.Verdict, res.Detail, out)
	}
	if len(res.Taints) != 1 || res.Taints[0].Kind != "unreached" || !strings.Contains(res.Taints[0].Why, "passed, but its processes ended by themselves having reached") {
		t.Errorf("taints %+v, want one \"unreached\"", res.Taints)
	}
	t.Logf("taints: %v", res.Taints)
}

// TestTaintReachedMost: here the script makes 140 of the 150
// redirections: sh ends by itself having reached most of the recording,
// and the pass is not tainted.
func TestTaintReachedMost(t *testing.T) {
	rec := recordRun(t, scriptDir(t, lines(150)), "/bin/sh", "s")
	res, out := replayRun(t, rec, scriptDir(t, lines(140)), func(uint64) bool { return false }, "/bin/sh", "s")
	if res.Verdict != verdict.Pass || len(res.Taints) != 0 {
		t.Errorf("verdict %s (%s), taints %+v; want an untainted pass; output:\n%s", res.Verdict, res.Detail, res.Taints, out)
	}
}

// TestTaintNotUnreachedWhenKilled: judged by --alive, sh is still
// running here (a loop of builtins, no calls) when the check kills it,
// having reached only its start-up: a process cut short by the run's end
// is not counted, and the pass is not tainted.
func TestTaintNotUnreachedWhenKilled(t *testing.T) {
	rec := recordRun(t, scriptDir(t, lines(150)), "/bin/sh", "s")
	res, out := replayRunJudged(t, rec, scriptDir(t, "while :; do :; done\n"), func(uint64) bool { return false }, false,
		verdict.Spec{Alive: 500 * time.Millisecond}, "/bin/sh", "s")
	if res.Verdict != verdict.Pass || len(res.Taints) != 0 {
		t.Errorf("verdict %s (%s), taints %+v; want an untainted pass; output:\n%s", res.Verdict, res.Detail, res.Taints, out)
	}
}

// TestTaintExcludedData: sh runs a script whose content the recording
// left out; replayed whole, sh's reads of it return the recorded length
// with nothing written: the run is tainted "excluded-data", naming the
// script. Replaying nothing, sh reads the script for real: no taint.
func TestTaintExcludedData(t *testing.T) {
	dir := scriptDir(t, lines(3))
	rec := recordRunExcluding(t, dir, []string{filepath.Join(dir, "s")}, "/bin/sh", "s")
	res, out := replayRun(t, rec, dir, all, "/bin/sh", "s")
	found := false
	for _, tt := range res.Taints {
		found = found || tt.Kind == "excluded-data" && strings.Contains(tt.Why, "replayed read of "+filepath.Join(dir, "s"))
	}
	if !found {
		t.Errorf("verdict %s, taints %+v; want the replayed read of the excluded script; output:\n%s", res.Verdict, res.Taints, out)
	}
	res, out = replayRun(t, rec, dir, func(uint64) bool { return false }, "/bin/sh", "s")
	if res.Verdict != verdict.Pass || len(res.Taints) != 0 {
		t.Errorf("nothing replayed: verdict %s (%s), taints %+v; want an untainted pass; output:\n%s", res.Verdict, res.Detail, res.Taints, out)
	}
}
