package bisect

import (
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
