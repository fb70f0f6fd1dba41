package replay

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/verdict"
)

// mechEnv makes a directory with replaymech's config (content cfg, or
// none when cfg is "") and data files.
func mechEnv(t *testing.T, cfg string) string {
	t.Helper()
	dir := t.TempDir()
	if cfg != "" {
		if err := os.WriteFile(filepath.Join(dir, "c"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "d"), []byte("DATA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// mechRecording builds replaymech and records it reading a good config:
// "replaymech c d 64" in directory good.
func mechRecording(t *testing.T) (bin, good string, rec *Recording) {
	t.Helper()
	bin = testutil.BuildC(t, "replaymech.c", false)
	good = mechEnv(t, "ok config\n")
	return bin, good, recordRun(t, good, bin, "c", "d", "64")
}

// TestReplayAllWritesRecordedResults: with every call replayed, a config
// file that is missing here is read as recorded, on the recorded fd
// numbers; the data file's open gets the number it had, because the
// config's replayed open left a stand-in on fd 3.
func TestReplayAllWritesRecordedResults(t *testing.T) {
	bin, _, rec := mechRecording(t)
	bad := mechEnv(t, "")
	res, out := replayRun(t, rec, bad, all, bin, "c", "d", "64")
	if res.Verdict != verdict.Pass {
		t.Errorf("verdict %s (%s), want pass; output:\n%s", res.Verdict, res.Detail, out)
	}
	wantLines(t, out, "config fd 3", "data fd 4", "config read 10: ok config", "canary ok", "data read 5: DATA", "reopen fd 3")
	if res.Replayed == 0 || len(res.Diverged()) != 0 {
		t.Errorf("replayed %d, divergences %v; want replayed calls and no divergence", res.Replayed, res.Divergences)
	}
}

// TestReplayKeepsFDNumbers: only the config's calls replayed; the data
// file's calls run for real and still get fd 4, and read the live data.
func TestReplayKeepsFDNumbers(t *testing.T) {
	bin, good, rec := mechRecording(t)
	bad := mechEnv(t, "")
	if err := os.WriteFile(filepath.Join(bad, "d"), []byte("LIVE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := callsOn(rec, filepath.Join(good, "c"))
	if len(cfg) < 3 {
		t.Fatalf("the trace has %d calls on the config, want open, read, close", len(cfg))
	}
	res, out := replayRun(t, rec, bad, func(seq uint64) bool { return cfg[seq] }, bin, "c", "d", "64")
	wantLines(t, out, "config fd 3", "data fd 4", "config read 10: ok config", "data read 5: LIVE")
	if res.Verdict != verdict.Pass {
		t.Errorf("verdict %s, want pass", res.Verdict)
	}
}

// TestReplayNeverWritesPastTheLiveBuffer: the live run reads the config
// into a 4-byte buffer where the recorded run read 10 bytes: 4 are
// written, the read returns 4, and the canary after the buffer survives.
func TestReplayNeverWritesPastTheLiveBuffer(t *testing.T) {
	bin, _, rec := mechRecording(t)
	bad := mechEnv(t, "")
	_, out := replayRun(t, rec, bad, all, bin, "c", "d", "4")
	wantLines(t, out, "config read 4: ok c", "canary ok")
}

// TestExecuteThenOverwriteStandsIn: the config's open is asked to be
// replayed but its read executes, so the open runs for real (and fails
// here); the program still sees fd 3, which holds an empty stand-in, and
// the data file keeps fd 4.
func TestExecuteThenOverwriteStandsIn(t *testing.T) {
	bin, good, rec := mechRecording(t)
	bad := mechEnv(t, "")
	var open uint64
	for c := range rec.Graph.AllCalls() {
		if c.Path == filepath.Join(good, "c") && rec.Table.ByNr(int(c.Nr)).Name == "openat" {
			open = c.Seq
			break
		}
	}
	if open == 0 {
		t.Fatal("no openat of the config in the trace")
	}
	res, out := replayRun(t, rec, bad, func(seq uint64) bool { return seq == open }, bin, "c", "d", "64")
	if got := actionOf(res, open); got != "execute+overwrite" {
		t.Errorf("the open's action is %q, want execute+overwrite", got)
	}
	wantLines(t, out, "config fd 3", "data fd 4", "config read 0: ", "reopen fd 3")
	if res.Verdict != verdict.Fail {
		t.Errorf("verdict %s, want fail: the live read found nothing", res.Verdict)
	}
}

// TestReplayMovesFDs: the recorded run had fd 3 open already (the shell
// opened it), so the config got fd 4; here fd 3 is free. Replayed or
// executed, every fd-making call's fd is moved to the recorded number.
func TestReplayMovesFDs(t *testing.T) {
	bin := testutil.BuildC(t, "replaymech.c", false)
	testutil.Require(t, testutil.Binary("sh"))
	good := mechEnv(t, "ok config\n")
	rec := recordRun(t, good, "sh", "-c", "exec 3</dev/null; exec "+bin+" c d 64")
	bad := mechEnv(t, "ok config\n")
	res, out := replayRun(t, rec, bad, all, "sh", "-c", "exec "+bin+" c d 64")
	wantLines(t, out, "config fd 4", "data fd 5", "config read 10: ok config", "reopen fd 4")
	if res.Verdict != verdict.Pass {
		t.Errorf("verdict %s, want pass", res.Verdict)
	}
}

// TestDivergentCallRunsForReal: the live run opens another file where the
// recording opened the config: that call is an extra call, runs for
// real, and the recorded config calls are never replayed against it.
func TestDivergentCallRunsForReal(t *testing.T) {
	bin, good, rec := mechRecording(t)
	bad := mechEnv(t, "")
	if err := os.WriteFile(filepath.Join(bad, "other"), []byte("no, other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, out := replayRun(t, rec, bad, all, bin, "other", "d", "64")
	wantLines(t, out, "config read 10: no, other")
	if res.Verdict != verdict.Fail {
		t.Errorf("verdict %s, want fail: the other file was read for real", res.Verdict)
	}
	found := false
	for _, d := range res.Divergences {
		if d.Kind == "extra" && d.Got == "openat "+filepath.Join(bad, "other") && d.Expected == "openat "+filepath.Join(good, "c") {
			found = true
		}
	}
	if !found {
		t.Errorf("divergences %+v lack the extra openat of %s/other where the config's open was expected", res.Divergences, bad)
	}
	for _, c := range res.Calls {
		if c.Path == filepath.Join(bad, "other") && c.Action != "extra" {
			t.Errorf("live %s of the other file: action %q, want extra", c.Syscall, c.Action)
		}
	}
}

// TestReplayWithoutSeccomp: where seccomp filters are missing the tracer
// stops at every call's entry and exit; skipped calls get their result at
// the exit stop instead. The same run gives the same output.
func TestReplayWithoutSeccomp(t *testing.T) {
	bin, _, rec := mechRecording(t)
	bad := mechEnv(t, "")
	res, out := replayRunWith(t, rec, bad, all, true, bin, "c", "d", "64")
	if res.Verdict != verdict.Pass {
		t.Errorf("verdict %s (%s), want pass; output:\n%s", res.Verdict, res.Detail, out)
	}
	wantLines(t, out, "config fd 3", "data fd 4", "config read 10: ok config", "canary ok", "data read 5: DATA", "reopen fd 3")
}

// TestReplayRunsAWriteOfAnotherSize: a write that hands the kernel more
// bytes than the recorded one (a pid file whose pid has one digit more
// here) runs for real, even with everything replayed: the recorded
// result, 3 bytes written, would tell the program its write of 4 came up
// short.
func TestReplayRunsAWriteOfAnotherSize(t *testing.T) {
	bin := testutil.BuildC(t, "writearg.c", false)
	good, bad := t.TempDir(), t.TempDir()
	rec := recordRun(t, good, bin, "out", "123")
	res, out := replayRun(t, rec, bad, all, bin, "out", "1234")
	if res.Verdict != verdict.Pass {
		t.Errorf("verdict %s (%s), want pass; output:\n%s", res.Verdict, res.Detail, out)
	}
	found := false
	for _, c := range res.Calls {
		if c.Syscall == "write" && c.Path == filepath.Join(good, "out") {
			found = true
			if c.Action != "execute (other input size)" {
				t.Errorf("the write of 4 bytes where 3 were recorded: action %q, want execute (other input size)", c.Action)
			}
		}
	}
	if !found {
		t.Errorf("no live write on %s/out among %+v", good, res.Calls)
	}
	// The same size is replayed, and its effect kept: the write runs
	// into this run's file (the program's own bytes) and the program
	// sees the recorded result.
	res, out = replayRun(t, rec, bad, all, bin, "out", "321")
	if res.Verdict != verdict.Pass {
		t.Errorf("same size: verdict %s (%s), want pass; output:\n%s", res.Verdict, res.Detail, out)
	}
	found = false
	for _, c := range res.Calls {
		if c.Syscall == "write" && c.Path == filepath.Join(good, "out") {
			found = true
			if c.Action != "execute+overwrite" {
				t.Errorf("the write of as many bytes as recorded: action %q, want execute+overwrite (effect kept)", c.Action)
			}
		}
	}
	if !found {
		t.Errorf("same size: no live write on %s/out among %+v", good, res.Calls)
	}
	if got, err := os.ReadFile(filepath.Join(bad, "out")); err != nil || string(got) != "321" {
		t.Errorf("same size: %s/out holds %q (%v), want the program's own write, \"321\"", bad, got, err)
	}
}
