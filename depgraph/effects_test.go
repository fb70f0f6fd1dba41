package depgraph

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// TestRunsWhenReplayed: the calls that changed a file-system object in
// the recording keep their effect when replayed; writes to stdout, a
// pipe, a socket or a device, reads, and calls that failed do not.
func TestRunsWhenReplayed(t *testing.T) {
	b := newTB(t)
	b.openat("src", 1, "src/a.c", "/b/src/a.c", unix.O_RDONLY, 3)
	b.do("read", 1, "read", 5, []uint64{3, 0x2000, 4096})
	b.openat("out", 1, "out.tar", "/b/out.tar", unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC, 4)
	b.do("write", 1, "write", 5, []uint64{4, 0x2000, 5})
	b.do("pwrite", 1, "pwrite64", 5, []uint64{4, 0x2000, 5, 512})
	b.do("seek", 1, "lseek", 0, []uint64{4, 0, 0})
	b.do("ftruncate", 1, "ftruncate", 0, []uint64{4, 1024})
	b.do("fchmod", 1, "fchmod", 0, []uint64{4, 0o755})
	b.openat("append", 1, "log", "/b/log", unix.O_WRONLY|unix.O_APPEND, 5)
	b.do("appended", 1, "write", 3, []uint64{5, 0x2000, 3})
	b.openat("trunc", 1, "old", "/b/old", unix.O_WRONLY|unix.O_TRUNC, 6)
	b.do("stdout", 1, "write", 3, []uint64{1, 0x2000, 3})
	b.do("pipe", 1, "pipe2", 0, []uint64{0x3000, 0}, mem(0, trace.PartWhole, trace.Out, fdPair(7, 8)), fdPath("pipe:[9]"))
	b.do("topipe", 1, "write", 3, []uint64{8, 0x2000, 3})
	b.do("sock", 1, "socket", 9, []uint64{unix.AF_INET, unix.SOCK_DGRAM, 0})
	b.do("send", 1, "sendto", 3, []uint64{9, 0x2000, 3, 0, 0x3000, 16}, mem(4, trace.PartWhole, trace.In, sockaddr4("10.0.0.1", 53)))
	b.openat("null", 1, "/dev/null", "/dev/null", unix.O_WRONLY, 10)
	b.do("tonull", 1, "write", 3, []uint64{10, 0x2000, 3})
	b.do("mkdir", 1, "mkdir", 0, []uint64{0, 0o755}, named("obj", "/b/obj"))
	b.do("rename", 1, "rename", 0, nil, named("out.tar", "/b/out.tar"), named("obj/out.tar", "/b/obj/out.tar"))
	b.do("unlink", 1, "unlink", 0, nil, named("old", "/b/old"))
	b.do("chmod", 1, "chmod", 0, []uint64{0, 0o644}, named("obj", "/b/obj"))
	b.do("utimens", 1, "utimensat", 0, []uint64{atCWD, 0, 0x3000, 0}, named("obj", "/b/obj"))
	b.do("symlink", 1, "symlink", 0, nil, named("link", "/b/link"))
	b.do("failed", 1, "unlink", -int64(unix.ENOENT), nil, named("gone", "/b/gone"))
	b.do("stat", 1, "newfstatat", 0, []uint64{atCWD, 0, 0x3000, 0}, named("obj", "/b/obj"))
	g := b.graph()

	kept := []string{"out", "write", "pwrite", "ftruncate", "fchmod", "appended", "trunc", "mkdir", "rename", "unlink", "chmod", "utimens", "symlink"}
	notKept := []string{"src", "read", "seek", "append", "stdout", "pipe", "topipe", "sock", "send", "null", "tonull", "failed", "stat"}
	for _, l := range kept {
		if !g.RunsWhenReplayed(b.l(l)) {
			t.Errorf("%s: RunsWhenReplayed false, want true (it changed a file-system object)", l)
		}
	}
	for _, l := range notKept {
		if g.RunsWhenReplayed(b.l(l)) {
			t.Errorf("%s: RunsWhenReplayed true, want false (it changed no file)", l)
		}
	}
}

// TestClosureOfKeptEffects: with everything replayed, a kept write makes
// the open it writes through and the lseek that placed its offset real
// (executed, then the program sees the recorded results), while the open
// of the file it copies from stays a replayed, served stand-in and a write
// to stdout stays replayed; with nothing of the output asked for, its
// calls execute as before.
func TestClosureOfKeptEffects(t *testing.T) {
	build := func(b *tb) {
		b.openat("src", 1, "src/a.c", "/b/src/a.c", unix.O_RDONLY, 3)
		b.do("read", 1, "read", 5, []uint64{3, 0x2000, 4096})
		b.openat("out", 1, "out", "/b/out", unix.O_RDWR, 4)
		b.do("seek", 1, "lseek", 100, []uint64{4, 100, 0})
		b.do("write", 1, "write", 5, []uint64{4, 0x2000, 5})
		b.do("reread", 1, "pread64", 5, []uint64{4, 0x2000, 5, 100})
		b.do("stdout", 1, "write", 3, []uint64{1, 0x2000, 3})
	}
	b := newTB(t)
	build(b)
	g := b.graph()
	p := g.Closure(func(uint64) bool { return true })
	want := map[string]Action{
		"src": Replay, "read": Replay, "out": ExecuteThenOverwrite, "seek": ExecuteThenOverwrite,
		"write": Replay, "reread": Replay, "stdout": Execute,
	}
	for l, a := range want {
		if got := p.Action(b.l(l)); got != a {
			t.Errorf("%s: %s (%s), want %s", l, got, p.Reason(b.l(l)), a)
		}
	}
	if by, ok := p.NeededBy(b.l("out")); !ok || by != b.l("write") && by != b.l("seek") {
		t.Errorf("out: needed by %d, %v; want the kept write or its lseek", by, ok)
	}
	checkPlan(t, g, p)

	// Nothing asked: everything executes, the rule asks nothing more.
	none := g.Closure(func(uint64) bool { return false })
	for l := range want {
		if got := none.Action(b.l(l)); got != Execute {
			t.Errorf("nothing replayed: %s is %s, want execute", l, got)
		}
	}
}
