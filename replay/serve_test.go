package replay

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/serve"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/verdict"
)

// keptFiles is a trace's file objects and their content, as a recording
// that keeps the good environment's files holds them.
type keptFiles struct {
	files   map[uint32]*trace.FileObject
	content map[uint32][]byte
}

func (k *keptFiles) File(id uint32) *trace.FileObject { return k.files[id] }

func (k *keptFiles) OpenContent(f *trace.FileObject) (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(k.content[f.ID])), nil
}

// servedRecording records mapdata on a data file in a good directory and
// gives the trace the file's object (content kept unless why says not),
// named by the open's Obj, as record does when it keeps content.
func servedRecording(t *testing.T, why string, args ...string) (bin, good string, rec *Recording, kept *keptFiles, open uint64) {
	t.Helper()
	bin = testutil.BuildC(t, "mapdata.c", false)
	good = t.TempDir()
	data := []byte(strings.Repeat("good line of the data file\n", 400))
	if err := os.WriteFile(filepath.Join(good, "data"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	rec = recordRunInMemory(t, good, append([]string{bin, "data"}, args...)...)
	for _, c := range rec.Trace.Events {
		if c.Call != nil && c.Call.Path == filepath.Join(good, "data") && c.Call.Ret >= 0 && rec.Table.ByNr(int(c.Call.Nr)).Name == "openat" {
			c.Call.Obj, open = 1, c.Call.Seq
		}
	}
	if open == 0 {
		t.Fatal("no openat of the data file in the trace")
	}
	f := &trace.FileObject{ID: 1, Path: filepath.Join(good, "data"), Size: int64(len(data)), Mode: unix.S_IFREG | 0o644,
		SHA256: sha256.Sum256(data), Why: why}
	if why == "" {
		f.Chunks = []trace.Hash{f.SHA256}
	}
	kept = &keptFiles{files: map[uint32]*trace.FileObject{1: f}, content: map[uint32][]byte{1: data}}
	g, err := depgraph.BuildServed(rec.Table, &rec.Trace.Header, rec.Trace.Events, kept)
	if err != nil {
		t.Fatal(err)
	}
	if rec, err = Prepare(rec.Trace, g); err != nil {
		t.Fatal(err)
	}
	return bin, good, rec, kept, open
}

// servedRun is replayRun with the trace's files served from store.
func servedRun(t *testing.T, rec *Recording, store *serve.Store, dir string, replayed func(uint64) bool, argv ...string) (*Result, string) {
	t.Helper()
	return servedRunWith(t, rec, store, dir, replayed, false, argv...)
}

// servedRunWith is servedRun, in the PTRACE_SYSCALL fallback when
// noSeccomp is set.
func servedRunWith(t *testing.T, rec *Recording, store *serve.Store, dir string, replayed func(uint64) bool, noSeccomp bool, argv ...string) (*Result, string) {
	t.Helper()
	outPath := filepath.Join(t.TempDir(), "stdout")
	out, err := os.Create(outPath)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	res, err := rec.Run(context.Background(), Options{
		Argv: argv, Dir: dir, Plan: rec.Graph.Closure(replayed), Judge: verdict.Spec{}, CPU: -1,
		ListCalls: true, Stdin: openDevNull(t), Stdout: out, Stderr: out, Serve: store, NoSeccomp: noSeccomp,
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

// badData is the bad directory: its data file is short and says "bad".
func badData(t *testing.T) string {
	t.Helper()
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "data"), []byte("bad\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return bad
}

// TestReplayedOpenServesTheGoodFile: with the open replayed and the
// fstat, read and mmap on its fd executed, the program sees the good
// file the trace keeps, not the short bad one here, and passes; the open
// stays replayed (its stand-in holds the file) instead of running.
func TestReplayedOpenServesTheGoodFile(t *testing.T) {
	bin, _, rec, kept, open := servedRecording(t, "")
	store := serve.NewStore(kept)
	defer store.Close()
	bad := badData(t)
	for _, tc := range []struct {
		name      string
		replayed  func(uint64) bool
		noSeccomp bool
	}{
		{"only the open replayed", func(seq uint64) bool { return seq == open }, false},
		{"everything replayed", all, false},
		{"everything replayed, PTRACE_SYSCALL", all, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, out := servedRunWith(t, rec, store, bad, tc.replayed, tc.noSeccomp, bin, "data")
			if got := actionOf(res, open); got != "replay" {
				t.Errorf("the open's action is %q, want replay (served)", got)
			}
			wantLines(t, out, "size 10800", "head: good line of the data file", "tail: good line of the data file")
			if res.Verdict != verdict.Pass {
				t.Errorf("verdict %s (%s), want pass; output:\n%s", res.Verdict, res.Detail, out)
			}
		})
	}
	res, out := servedRun(t, rec, store, bad, func(uint64) bool { return false }, bin, "data")
	if res.Verdict != verdict.Fail || !strings.Contains(out, "head: bad") {
		t.Errorf("nothing replayed: verdict %s, output %q; want a failure on the bad file", res.Verdict, out)
	}
}

// TestUnkeptFileRunsTheOpen: a file whose content the recording excluded
// cannot be served: the open runs for real (and the program sees the bad
// file), and the run's call list says why, with the record flag that
// would keep it.
func TestUnkeptFileRunsTheOpen(t *testing.T) {
	bin, _, rec, kept, open := servedRecording(t, trace.ContentExcluded)
	store := serve.NewStore(kept)
	defer store.Close()
	res, out := servedRun(t, rec, store, badData(t), func(seq uint64) bool { return seq == open }, bin, "data")
	var why string
	for _, c := range res.Calls {
		if c.Seq == open {
			why = c.Why
			if c.Action != "execute+overwrite" {
				t.Errorf("the open's action is %q, want execute+overwrite", c.Action)
			}
		}
	}
	if !strings.Contains(why, "content not kept") || !strings.Contains(why, "--exclude-content") {
		t.Errorf("the open's why is %q, want it to say the content was excluded and the remedy", why)
	}
	if res.Verdict != verdict.Fail || !strings.Contains(out, "head: bad") {
		t.Errorf("verdict %s, output %q; want a failure on the bad file", res.Verdict, out)
	}
}

// TestOverwrittenOpenServesTheGoodFile: an fcntl(F_SETFL) that executes
// needs its open to run for real; the file is missing here, so the open
// fails live, and the stand-in the program gets on the recorded fd holds
// the good file the trace keeps.
func TestOverwrittenOpenServesTheGoodFile(t *testing.T) {
	bin, _, rec, kept, open := servedRecording(t, "", "setfl")
	store := serve.NewStore(kept)
	defer store.Close()
	res, out := servedRun(t, rec, store, t.TempDir(), func(seq uint64) bool { return seq == open }, bin, "data", "setfl")
	if got := actionOf(res, open); got != "execute+overwrite" {
		t.Errorf("the open's action is %q, want execute+overwrite (the fcntl needs it)", got)
	}
	wantLines(t, out, "size 10800", "head: good line of the data file", "tail: good line of the data file")
	if res.Verdict != verdict.Pass {
		t.Errorf("verdict %s (%s), want pass; output:\n%s", res.Verdict, res.Detail, out)
	}
}
