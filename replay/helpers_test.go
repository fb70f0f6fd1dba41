package replay

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/record"
	"github.com/envbisect/envbisect/tracefile"
	"github.com/envbisect/envbisect/verdict"
)

// recordRun records argv (in dir) and prepares the trace for replay.
func recordRun(t *testing.T, dir string, argv ...string) *Recording {
	t.Helper()
	return recordRunExcluding(t, dir, nil, argv...)
}

// recordRunExcluding is recordRun with the contents of the paths that
// match exclude left out of the trace (record --exclude-content). The
// Recording reads its calls from the trace file (PrepareStore), as
// replay's does.
func recordRunExcluding(t *testing.T, dir string, exclude []string, argv ...string) *Recording {
	t.Helper()
	rec, err := prepareStore(recordTrace(t, dir, exclude, argv...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rec.Close() })
	return rec
}

// recordRunInMemory is recordRun with the trace read whole (Prepare),
// as locate's call-level search does.
func recordRunInMemory(t *testing.T, dir string, argv ...string) *Recording {
	t.Helper()
	tr, err := tracefile.ReadFile(recordTrace(t, dir, nil, argv...))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := prepare(tr)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// recordTrace records argv (in dir), leaving out the contents of the
// paths that match exclude, and returns the trace's path.
func recordTrace(t *testing.T, dir string, exclude []string, argv ...string) string {
	t.Helper()
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp)
	out := filepath.Join(t.TempDir(), "good.envb")
	devnull := openDevNull(t)
	sum, err := record.Run(record.Options{Output: out, Argv: argv, Dir: dir, CPU: -1, Exclude: exclude,
		Stdin: devnull, Stdout: devnull, Stderr: devnull})
	if err != nil {
		t.Fatalf("record %v: %v", argv, err)
	}
	if sum.ExitCode != 0 {
		t.Fatalf("record %v: exit status %d, want a passing run", argv, sum.ExitCode)
	}
	return out
}

func openDevNull(t *testing.T) *os.File {
	t.Helper()
	f, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// replayRun makes one run with the calls replayed says replayed, and
// returns its result and what the command printed.
func replayRun(t *testing.T, rec *Recording, dir string, replayed func(seq uint64) bool, argv ...string) (*Result, string) {
	t.Helper()
	return replayRunWith(t, rec, dir, replayed, false, argv...)
}

// replayRunWith is replayRun, in the PTRACE_SYSCALL fallback when
// noSeccomp is set.
func replayRunWith(t *testing.T, rec *Recording, dir string, replayed func(seq uint64) bool, noSeccomp bool, argv ...string) (*Result, string) {
	t.Helper()
	return replayRunJudged(t, rec, dir, replayed, noSeccomp, verdict.Spec{}, argv...)
}

// replayRunJudged is replayRunWith with the run judged by judge.
func replayRunJudged(t *testing.T, rec *Recording, dir string, replayed func(seq uint64) bool, noSeccomp bool, judge verdict.Spec, argv ...string) (*Result, string) {
	t.Helper()
	outPath := filepath.Join(t.TempDir(), "stdout")
	out, err := os.Create(outPath)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	res, err := rec.Run(context.Background(), Options{
		Argv: argv, Dir: dir, Plan: rec.Graph.Closure(replayed), Judge: judge, CPU: -1,
		ListCalls: true, Stdin: openDevNull(t), Stdout: out, Stderr: out, NoSeccomp: noSeccomp,
	})
	if err != nil {
		t.Fatalf("replay %v: %v", argv, err)
	}
	b, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

func all(uint64) bool { return true }

// callsOn returns the seqs of the recorded calls on path (by Path).
func callsOn(rec *Recording, path string) map[uint64]bool {
	m := make(map[uint64]bool)
	for c := range rec.Graph.AllCalls() {
		if c.Path == path {
			m[c.Seq] = true
		}
	}
	return m
}

// wantLines fails unless out holds every line of want, in order.
func wantLines(t *testing.T, out string, want ...string) {
	t.Helper()
	rest := out
	for _, w := range want {
		i := strings.Index(rest, w+"\n")
		if i < 0 {
			t.Errorf("output lacks %q (after the lines before it); output:\n%s", w, out)
			return
		}
		rest = rest[i+len(w):]
	}
}

// actionOf returns what the run did with recorded call seq.
func actionOf(res *Result, seq uint64) string {
	for _, c := range res.Calls {
		if c.Seq == seq {
			return c.Action
		}
	}
	return ""
}
