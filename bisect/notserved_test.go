package bisect

import (
	"context"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/trace"
)

type fileObjects map[uint32]*trace.FileObject

func (f fileObjects) File(id uint32) *trace.FileObject { return f[id] }

// TestReportNotServed: the report lists the open of a library the loader
// maps, whose content the recording left out for its budget, with the
// remedy, and not the one of a library the trace keeps.
func TestReportNotServed(t *testing.T) {
	b := newTB(t)
	path := func(p string) trace.Mem {
		return trace.Mem{Arg: 1, Dir: trace.In, Len: uint64(len(p) + 1), Data: []byte(p + "\x00")}
	}
	kept := b.do("kept", "openat", 3, []uint64{atCWD, 0x10000, unix.O_RDONLY, 0}, path("/lib/libkept.so"))
	kept.Path, kept.Obj = "/lib/libkept.so", 1
	b.do("mmap", "mmap", 0x7f0000000000, []uint64{0, 4096, unix.PROT_READ | unix.PROT_EXEC, unix.MAP_PRIVATE, 3, 0}).Path = "/lib/libkept.so"
	big := b.do("big", "openat", 4, []uint64{atCWD, 0x10000, unix.O_RDONLY, 0}, path("/lib/libbig.so"))
	big.Path, big.Obj = "/lib/libbig.so", 2
	b.do("mmap2", "mmap", 0x7f0000100000, []uint64{0, 4096, unix.PROT_READ | unix.PROT_EXEC, unix.MAP_PRIVATE, 4, 0}).Path = "/lib/libbig.so"
	files := fileObjects{
		1: {ID: 1, Path: "/lib/libkept.so", Size: 4096, Mode: unix.S_IFREG | 0o644, Chunks: []trace.Hash{{1}}},
		2: {ID: 2, Path: "/lib/libbig.so", Size: 1 << 30, Mode: unix.S_IFREG | 0o644, Why: trace.ContentOverBudget},
	}
	g, err := depgraph.BuildServed(b.Table, &trace.Header{Arch: "amd64"}, b.Events, files)
	if err != nil {
		t.Fatal(err)
	}
	got := notServed(g)
	if len(got) != 1 || got[0].Seq != big.Seq || got[0].Path != "/lib/libbig.so" || !strings.Contains(got[0].Why, "--max-content") {
		t.Errorf("not served: %+v, want only #%d /lib/libbig.so with the --max-content remedy", got, big.Seq)
	}
}

// TestCulpritOpenShowsContent: a served open is the culprit (it returns
// an fd here too, on another number); the report shows the later read
// of the file whose data differ as the content evidence, not the fstat
// (whose device and inode numbers differ for any two files).
func TestCulpritOpenShowsContent(t *testing.T) {
	b := newTB(t)
	b.always(2)
	b.file("conf.", "/etc/app.conf", "mode=ok\n")
	b.always(2)
	open, fstat, read := b.l("conf.open"), b.l("conf.fstat"), b.l("conf.read")
	for _, ev := range b.Events {
		if ev.Call != nil && ev.Call.Seq == open {
			ev.Call.Obj = 1
		}
	}
	files := fileObjects{1: {ID: 1, Path: "/etc/app.conf", Size: 8, Mode: unix.S_IFREG | 0o644, Chunks: []trace.Hash{{1}}}}
	g, err := depgraph.BuildServed(b.Table, &trace.Header{Arch: "amd64"}, b.Events, files)
	if err != nil {
		t.Fatal(err)
	}
	liveOpen, _ := g.Call(open)
	lo := *liveOpen
	lo.Ret = 4
	st, _ := g.Call(fstat)
	ls := *st
	ls.Mem = []trace.Mem{{Arg: 1, Dir: trace.Out, Len: 144, Data: append([]byte{9}, make([]byte, 143)...)}}
	rd, _ := g.Call(read)
	lr := *rd
	lr.Ret = 12
	lr.Mem = []trace.Mem{{Arg: 1, Dir: trace.Out, Len: 12, Data: []byte("mode=broken\n")}}
	f := &fake{g: g, culprit: open, here: map[uint64]*trace.Call{open: &lo, fstat: &ls, read: &lr}}
	rep, err := Locate(context.Background(), g, f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Culprit
	if rep.Status != Located || c == nil || c.Seq != open {
		t.Fatalf("status %s, culprit %+v; want the open #%d", rep.Status, c, open)
	}
	if c.Content == nil || c.Content.Seq != read || c.Content.DataDiff == nil || !c.Content.DataDiff.Text {
		t.Errorf("content evidence %+v, want the read #%d with a text diff", c.Content, read)
	}
}
