package bisect

import (
	"context"
	"encoding/binary"
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// statBuf is a struct stat (amd64) with mode, uid and gid set.
func statBuf(mode, uid, gid uint32) []byte {
	b := make([]byte, 144)
	binary.LittleEndian.PutUint32(b[24:], mode)
	binary.LittleEndian.PutUint32(b[28:], uid)
	binary.LittleEndian.PutUint32(b[32:], gid)
	return b
}

// statCall adds a newfstatat of p, labelled label, that saw mode.
func (b *tb) statCall(label, p string, mode uint32) *trace.Call {
	c := b.do(label, "newfstatat", 0, []uint64{atCWD, 0x10000, 0x20000, 0},
		trace.Mem{Arg: 1, Dir: trace.In, Len: uint64(len(p) + 1), Data: []byte(p + "\x00")},
		trace.Mem{Arg: 2, Dir: trace.Out, Len: 144, Data: statBuf(mode, 0, 0)})
	c.Path = p
	return c
}

// failed is c failing with -errno, its Out buffers gone.
func failed(c *trace.Call, errno int64) *trace.Call {
	d := *c
	d.Ret = -errno
	d.Mem = nil
	for _, m := range c.Mem {
		if m.Dir == trace.In {
			d.Mem = append(d.Mem, m)
		}
	}
	return &d
}

// TestExplainMissingComponent: a program stats its configuration
// directory, then opens a file in it; here the directory is missing. The
// culprit is the open, and the missing component the directory, shown
// by the stat, which found it in the good run.
func TestExplainMissingComponent(t *testing.T) {
	b := newTB(t)
	b.file("run.", "/srv/app/run.sh", "#!/bin/sh\n")
	b.statCall("stat", "/srv/app/conf.d", 0o40755)
	b.file("conf.", "/srv/app/conf.d/app.conf", "mode=fast\n")
	b.always(1)
	g := b.graph()
	open, stat := b.l("conf.open"), b.l("stat")
	here := map[uint64]*trace.Call{stat: failed(call(t, g, stat), 2), open: failed(call(t, g, open), 2)}
	for _, l := range []string{"conf.fstat", "conf.read", "conf.close"} {
		here[b.l(l)] = nil // did not happen
	}
	rep, err := Locate(context.Background(), g, &fake{g: g, culprit: open, here: here}, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != open {
		t.Fatalf("%s %+v; want call %d located", rep.Status, rep.Culprit, open)
	}
	c := rep.Culprit
	if c.Facts == nil || c.Facts.Missing == nil {
		t.Fatalf("no missing component: %+v", c.Facts)
	}
	if m := *c.Facts.Missing; m.Path != "/srv/app/conf.d" || !m.Known || m.Seq != stat || !m.ExistedInGood {
		t.Errorf("missing %+v; want /srv/app/conf.d, known from call %d, existed in the good run", m, stat)
	}
	want := "/srv/app/conf.d does not exist here (call " + strconv.FormatUint(stat, 10) + " shows it), so /srv/app/conf.d/app.conf cannot be reached; in the good run it existed."
	if c.Explanation != want {
		t.Errorf("explanation %q, want %q", c.Explanation, want)
	}
}

// TestExplainDenied: a program run as another user stats its output
// directory and creates a file in it; here the directory is 0755, not
// 0777, and the creation fails with EACCES. The explanation gives the
// directory's mode on both sides and the ids the command started with.
func TestExplainDenied(t *testing.T) {
	b := newTB(t)
	b.statCall("stat", "/srv/out", 0o40777)
	c := b.do("create", "openat", 3, []uint64{atCWD, 0x10000, 0o1101, 0o666},
		trace.Mem{Arg: 1, Dir: trace.In, Len: 16, Data: []byte("/srv/out/result\x00")})
	c.Path = "/srv/out/result"
	b.do("", "close", 0, []uint64{3}).Path = "/srv/out/result"
	b.always(1)
	g := b.graph()
	create, stat := b.l("create"), b.l("stat")
	hereStat := *call(t, g, stat)
	hereStat.Mem = []trace.Mem{hereStat.Mem[0], {Arg: 2, Dir: trace.Out, Len: 144, Data: statBuf(0o40755, 0, 0)}}
	here := map[uint64]*trace.Call{stat: &hereStat, create: failed(call(t, g, create), 13)}
	ids := "65534 65534 65534 65534"
	rep, err := Locate(context.Background(), g, &fake{g: g, culprit: create, here: here}, Options{Events: b.Events,
		Here: []trace.StartEvent{{Kind: trace.StartCreds, Name: trace.CredsUID, Value: ids}, {Kind: trace.StartCreds, Name: trace.CredsGID, Value: ids}}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != create {
		t.Fatalf("%s %+v; want call %d located", rep.Status, rep.Culprit, create)
	}
	cu := rep.Culprit
	if cu.Facts == nil || len(cu.Facts.Paths) != 1 || cu.Facts.Paths[0].Path != "/srv/out" {
		t.Fatalf("facts %+v", cu.Facts)
	}
	want := "openat(/srv/out/result) is denied here (EACCES) to uid 65534 gid 65534. /srv/out is drwxr-xr-x 0:0 here, drwxrwxrwx 0:0 in the good run."
	if cu.Explanation != want {
		t.Errorf("explanation %q, want %q", cu.Explanation, want)
	}
}

// TestUnifiedDiff: a text data diff is a unified diff with real hunk
// headers; lines without a final newline carry no marker line.
func TestUnifiedDiff(t *testing.T) {
	got := strings.Join(unifiedDiff([]byte("a\nb\nc\n"), []byte("a\nB\nc")), "\n")
	want := "--- good\n+++ here\n@@ -1,3 +1,3 @@\n a\n-b\n-c\n+B\n+c" // as diff -u prints it
	if got != want {
		t.Errorf("unifiedDiff:\n%s\nwant\n%s", got, want)
	}
	// Lines inserted after an unchanged first line: the line is context,
	// not deleted and inserted again (a byte-level diff inserts the
	// newline before it and cuts the line).
	got = strings.Join(unifiedDiff([]byte("anonymous_enable=YES\nlisten=YES\n"),
		[]byte("anonymous_enable=YES\nuserlist_enable=YES\nlisten=YES\n")), "\n")
	want = "--- good\n+++ here\n@@ -1,2 +1,3 @@\n anonymous_enable=YES\n+userlist_enable=YES\n listen=YES"
	if got != want {
		t.Errorf("unifiedDiff:\n%s\nwant\n%s", got, want)
	}
}
