package envdiff_test

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/envbisect/envbisect/envdiff"
	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/trace"
)

// An Inspector's memory does not grow with the calls it reads (issue 29):
// 200,000 calls of a loop that stats, opens, reads and closes one file
// (cloop's, with a stat) leave it holding what the first iteration did,
// well under 4 bytes a call once collected; and it names the file whose
// content differs here, first met by the loop's first call.
func TestInspectorMemoryBounded(t *testing.T) {
	const (
		calls    = 200_000
		perCall  = 4 // bytes of heap an Inspector may keep per call read
		sIFREG   = 0o100000
		oRDONLY  = 0
		fileID   = 1
		goodText = "mode=good\n"
	)
	b := tracetest.New(t)
	cwd := tracetest.AtCWD
	in := envdiff.NewInspector(b.Table, "amd64")
	add := func() {
		for i := range b.Events {
			in.Add(&b.Events[i])
		}
		b.Events = b.Events[:0] // the calls go, as a stream's do
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	stat := statBuf(sIFREG|0o644, int64(len(goodText)))
	for b.Seq() < calls {
		b.Call("", 1, 1, "newfstatat", 0, []uint64{cwd, 0, 0, 0}, tracetest.Named("app.conf", "/w/app.conf"),
			tracetest.Mem(2, 0, trace.Out, stat))
		c := b.Call("", 1, 1, "openat", 3, []uint64{cwd, 0, oRDONLY}, tracetest.Named("app.conf", "/w/app.conf"))
		c.Obj = fileID
		b.Call("", 1, 1, "read", int64(len(goodText)), []uint64{3, 0, 4096}, tracetest.Path("/w/app.conf"),
			tracetest.Mem(1, 0, trace.Out, []byte(goodText)))
		b.Call("", 1, 1, "close", 0, []uint64{3}, tracetest.Path("/w/app.conf"))
		add()
	}
	after := heap()
	runtime.KeepAlive(in)
	if kept := int64(after) - int64(before); kept > calls*perCall {
		t.Errorf("the Inspector keeps %d bytes after %d calls, %.1f a call: want under %d", kept, calls, float64(kept)/calls, perCall)
	}

	// The file object comes at the end, as a trace's file frames may.
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "w"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "w", "app.conf"), []byte("mode=bad\n"), 0o644))
	must(t, os.Chtimes(filepath.Join(root, "w", "app.conf"), mtime, mtime))
	files := []trace.FileObject{{ID: fileID, Path: "/w/app.conf", Mode: sIFREG | 0o644, Size: int64(len(goodText)),
		Mtime: mtime.UnixNano(), SHA256: sha256.Sum256([]byte(goodText))}}
	d, err := in.Compare(files, root, envdiff.Options{})
	must(t, err)
	o := d.Object("/w/app.conf")
	if o == nil || o.Differs.String() != "content" || o.FirstSeq != 1 || o.File != fileID {
		t.Fatalf("objects %+v; want /w/app.conf, its content, first met by call 1, file object %d", d.Objects, fileID)
	}
}
