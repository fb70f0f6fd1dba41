package tracefile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/envbisect/envbisect/trace"
)

// fixtureV2Files are the file objects testdata/v2/basic.envb holds, with
// their content: a 5 MiB library of two chunks, a config file and its
// copy (one chunk, stored once), and an excluded key. Frozen like
// fixtureV1: never change this function or regenerate the file.
func fixtureV2Files() []contentFile {
	lib := bytes.Repeat([]byte("\x7fELF libfixture.so.1: a shared library that compresses well\n"), 5<<20/60)
	conf := []byte("# /etc/app.conf\nlisten = 8080\nworkers = 4\n")
	return []contentFile{
		{trace.FileObject{ID: 1, Path: "/usr/lib/libfixture.so.1", Resolved: "/usr/lib/libfixture.so.1.0.0",
			Mode: 0o100644, Mtime: 1740834127000000000, Dev: 2049, Ino: 131073}, lib, true},
		{trace.FileObject{ID: 2, Path: "/etc/app.conf", Mode: 0o100640, UID: 0, GID: 4, Mtime: 1740834000000000000, Dev: 2049, Ino: 4242}, conf, true},
		{trace.FileObject{ID: 3, Path: "/etc/app.conf.bak", Mode: 0o100640, Mtime: 1740834000000000000, Dev: 2049, Ino: 4243}, conf, true},
		{trace.FileObject{ID: 4, Path: "/home/user/.ssh/id_ed25519", Mode: 0o100600, UID: 1000, GID: 1000, Dev: 2049, Ino: 7,
			Why: trace.ContentExcluded}, []byte("secret\n"), false},
	}
}

// fixtureV2 is fixtureV1's trace with the opens naming file objects.
func fixtureV2() *Trace {
	tr := fixtureV1()
	tr.Events[1].Call.Obj = 2
	tr.Events[5].Call.Path = "/etc/app.conf.bak"
	tr.Events[6].Call.Obj = 4
	return tr
}

// writeFixtureV2 writes the v2 fixture: the library before the events,
// the other files between and after the two events batches.
func writeFixtureV2(tb testing.TB) []byte {
	tr, files := fixtureV2(), fixtureV2Files()
	var buf bytes.Buffer
	w, err := fixtureOptions.NewWriter(&buf, &tr.Header)
	if err != nil {
		tb.Fatal(err)
	}
	cw, err := w.NewContentWriter()
	if err != nil {
		tb.Fatal(err)
	}
	defer cw.Close()
	store := func(f *contentFile) {
		if err := cw.StoreFile(&f.obj, bytes.NewReader(f.content), f.keep); err != nil {
			tb.Fatal(err)
		}
	}
	store(&files[0])
	if err := w.WriteStart(tr.Start); err != nil {
		tb.Fatal(err)
	}
	if err := w.WriteEvents(tr.Events[:4]); err != nil {
		tb.Fatal(err)
	}
	store(&files[1])
	if err := w.WriteEvents(tr.Events[4:]); err != nil {
		tb.Fatal(err)
	}
	store(&files[2])
	store(&files[3])
	if err := w.Close(tr.End); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

const fixtureV2Path = "testdata/v2/basic.envb"

func TestFixtureV2(t *testing.T) {
	if *update {
		if _, err := os.Stat(fixtureV2Path); errors.Is(err, os.ErrNotExist) {
			os.MkdirAll(filepath.Dir(fixtureV2Path), 0o755)
			if err := os.WriteFile(fixtureV2Path, writeFixtureV2(t), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s", fixtureV2Path)
		}
	}
	got, err := ReadFile(fixtureV2Path)
	if err != nil {
		t.Fatal(err)
	}
	want := fixtureV2()
	stripBlobs(got.Events)
	got.Header.Started, want.Header.Started = time.Time{}, time.Time{}
	got.End.Finished, want.End.Finished = time.Time{}, time.Time{}
	requireEqual(t, "header", got.Header, want.Header)
	requireEqual(t, "events", got.Events, want.Events)
	files := fixtureV2Files()
	requireEqual(t, "files", got.Files, wantObjects(files))
	checkContents(t, files, got.File, got.OpenContent)
	if got.Files[1].Chunks[0] != got.Files[2].Chunks[0] {
		t.Error("the config file and its copy do not share their chunk")
	}
}

// A version 1 trace read by this version has no file objects, and its
// calls name none.
func TestFixtureV1HasNoFiles(t *testing.T) {
	tr, err := ReadFile(fixtureV1Path)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := Open(fixtureV1Path)
	defer r.Close()
	if len(tr.Files) != 0 || tr.File(1) != nil || r.Version() != 1 {
		t.Errorf("v1 fixture: %d files, version %d", len(tr.Files), r.Version())
	}
	if _, err := tr.OpenContent(&trace.FileObject{ID: 1, Path: "/x", Size: 1, Chunks: []trace.Hash{{1}}}); err == nil {
		t.Error("content served from a trace without chunks")
	}
	_ = io.EOF
}
