package replay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
