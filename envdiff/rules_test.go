package envdiff_test

import (
	"encoding/binary"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/envbisect/envbisect/envdiff"
	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// mtime is the modification time of every file of the synthetic cases.
var mtime = time.Unix(1700000000, 0)

// statBuf is an amd64 struct stat of a file with mode (type and
// permissions), owned by root, of size bytes, modified at mtime.
func statBuf(mode uint32, size int64) []byte {
	b := make([]byte, 144)
	binary.LittleEndian.PutUint32(b[24:], mode)
	binary.LittleEndian.PutUint64(b[48:], uint64(size))
	binary.LittleEndian.PutUint64(b[88:], uint64(mtime.Unix()))
	return b
}

// dirents is a getdents64 buffer of names.
func dirents(names ...string) []byte {
	var b []byte
	for i, n := range names {
		reclen := (19 + len(n) + 1 + 7) &^ 7
		rec := make([]byte, reclen)
		binary.LittleEndian.PutUint64(rec, uint64(i+1))
		binary.LittleEndian.PutUint64(rec[8:], uint64(i+1))
		binary.LittleEndian.PutUint16(rec[16:], uint16(reclen))
		rec[18] = 8 // DT_REG
		copy(rec[19:], n)
		b = append(b, rec...)
	}
	return b
}

// The rules of the command's own work and of links, on a synthetic
// trace, inspected in a directory standing for a container's root.
func TestOwnWorkAndLinks(t *testing.T) {
	const (
		oRDONLY         = 0
		oWRONLY_CREAT   = 0o101
		atSymlinkNoFoll = 0x100
		sIFREG          = 0o100000
		sIFDIR          = 0o040000
		sIFLNK          = 0o120000
		oDIRECTORY      = 0o200000
	)
	b := tracetest.New(t)
	cwd := tracetest.AtCWD
	out := func(arg uint8, data []byte) tracetest.Opt { return tracetest.Mem(arg, 0, trace.Out, data) }
	// A file read, then renamed away: its state before the rename is
	// the object; the new name is the command's.
	b.Call("", 1, 1, "openat", 3, []uint64{cwd, 0, oRDONLY}, tracetest.Named("old.conf", "/r/old.conf"))
	b.Call("", 1, 1, "rename", 0, nil, tracetest.Named("old.conf", "/r/old.conf"), tracetest.Named("new.conf", "/r/new.conf"))
	// A directory made, and a file made and read in it: all its own.
	b.Call("", 1, 1, "mkdir", 0, []uint64{0, 0o755}, tracetest.Named("build", "/r/build"))
	b.Call("", 1, 1, "openat", 4, []uint64{cwd, 0, oWRONLY_CREAT}, tracetest.Named("build/x", "/r/build/x"))
	b.Call("", 1, 1, "openat", 5, []uint64{cwd, 0, oRDONLY}, tracetest.Named("build/x", "/r/build/x"))
	// A pid file seen missing, then made: missing in the good run.
	b.Call("", 1, 1, "newfstatat", -2, []uint64{cwd, 0, 0, 0}, tracetest.Named("app.pid", "/r/app.pid"))
	b.Call("", 1, 1, "openat", 6, []uint64{cwd, 0, oWRONLY_CREAT}, tracetest.Named("app.pid", "/r/app.pid"))
	// A link seen as such, and what it leads to: a regular file of mode
	// 0644. The file's mode is the target's object, not the link's.
	b.Call("", 1, 1, "lstat", 0, nil, tracetest.Named("l", "/r/l"), out(1, statBuf(sIFLNK|0o777, 2)))
	b.Call("", 1, 1, "readlink", 2, []uint64{0, 0, 64}, tracetest.Named("l", "/r/l"), out(1, []byte("t1")))
	b.Call("", 1, 1, "newfstatat", 0, []uint64{cwd, 0, 0, 0}, tracetest.Named("l", "/r/l"), out(2, statBuf(sIFREG|0o644, 3)))
	// A directory stat'ed without following: mode 0755.
	b.Call("", 1, 1, "newfstatat", 0, []uint64{cwd, 0, 0, atSymlinkNoFoll}, tracetest.Named("dir", "/r/dir"), out(2, statBuf(sIFDIR|0o755, 4096)))
	// A write to an fd the command inherited: its output, not environment.
	b.Call("", 1, 1, "write", 3, []uint64{1, 0, 3}, tracetest.Path("/r/stdout"))
	// The directory listed (in two getdents calls), with the trace file
	// in it, which the CLI tells Inspect to ignore, and the one the
	// recording was writing then, gone since.
	b.Call("", 1, 1, "openat", 7, []uint64{cwd, 0, oRDONLY | oDIRECTORY}, tracetest.Named("/r", "/r"))
	ents := dirents(".", "..", "old.conf", "t1", "dir", "l", "stdout", "trace.envb", ".good.envb.4242.partial")
	b.Call("", 1, 1, "getdents64", int64(len(ents)), []uint64{7, 0, 4096}, tracetest.Path("/r"), out(1, ents))
	b.Call("", 1, 1, "getdents64", 0, []uint64{7, 0, 4096}, tracetest.Path("/r"))
	tr := &tracefile.Trace{Header: trace.Header{Arch: "amd64"}, Events: b.Events}

	// Here: old.conf gone, new.conf and the command's files present, the
	// pid file left over, the link's target of mode 0600, dir 0700.
	root := t.TempDir()
	r := filepath.Join(root, "r")
	writeTree(t, r, map[string]string{"new.conf": "n\n", "build/x": "x\n", "app.pid": "1\n", "t1": "t1\n", "dir/": "", "stdout": "out",
		"trace.envb": "", "extra.conf": ""})
	must(t, os.Chmod(filepath.Join(r, "t1"), 0o600))
	must(t, os.Chmod(filepath.Join(r, "dir"), 0o700))
	must(t, os.Symlink("t1", filepath.Join(r, "l")))
	for _, p := range []string{"t1", "dir"} {
		must(t, os.Chtimes(filepath.Join(r, p), time.Time{}, mtime))
	}
	d, err := envdiff.Inspect(tr, tracetest.Amd64(t), root, envdiff.Options{Ignore: []string{"/r/trace.envb"}})
	must(t, err)
	sameWalk(t, tr, tracetest.Amd64(t))
	got := map[string]string{}
	for _, o := range d.Objects {
		got[o.Path] = o.Differs.String()
	}
	// The listing's entries: those the command made, removed or wrote
	// (new.conf, build, app.pid, old.conf, stdout) and the trace are
	// left out; extra.conf is here only.
	want := map[string]string{"/r/old.conf": "exists", "/r/app.pid": "exists", "/r/t1": "mode", "/r/dir": "mode",
		"/r": "entries", "/r/extra.conf": "exists"}
	if !maps.Equal(got, want) {
		t.Errorf("objects %v; want %v", got, want)
	}
	wantOwn := []string{"/r/build", "/r/build/x", "/r/new.conf"}
	if len(d.Own) != len(wantOwn) || d.Own[0] != wantOwn[0] || d.Own[1] != wantOwn[1] || d.Own[2] != wantOwn[2] {
		t.Errorf("own %v; want %v", d.Own, wantOwn)
	}
	// Where the command wrote: /r (new.conf, build, app.pid ...) and
	// the directory it made, /r/build; not the stdout it inherited.
	if fmt.Sprint(d.Written) != "[/r /r/build]" {
		t.Errorf("written %v; want [/r /r/build]", d.Written)
	}
	if o := d.Object("/r"); o != nil && (fmt.Sprint(o.Good.Entries) != "[dir l t1]" || fmt.Sprint(o.Here.Entries) != "[dir extra.conf l t1]") {
		t.Errorf("/r: entries %v here %v; want [dir l t1] and [dir extra.conf l t1]", o.Good.Entries, o.Here.Entries)
	}
	if o := d.Object("/r/t1"); o != nil && (o.Good.Mode != 0o644 || o.Here.Mode != 0o600 || o.FirstSeq != b.Events[9].Call.Seq) {
		t.Errorf("/r/t1: %+v; want 0644 in the good run, 0600 here, first met by the stat through the link", o)
	}
}
