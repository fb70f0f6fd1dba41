package depgraph

import (
	"maps"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// all replays every call.
const all = "*"

var closureCases = []struct {
	name  string
	build func(b *tb)
	// prefix is the label of the last call asked to be replayed (a
	// prefix replay), or all.
	prefix string
	opts   ClosureOptions
	want   map[string]Action
	// why lists calls' expected reasons.
	why map[string]Reason
}{
	{
		name: "open replayed, a later read executed",
		build: func(b *tb) {
			b.openat("open", 1, "/etc/vsftpd.conf", "/etc/vsftpd.conf", unix.O_RDONLY, 3)
			b.do("read1", 1, "read", 100, []uint64{3, 0x2000, 100})
			b.do("read2", 1, "read", 0, []uint64{3, 0x2000, 100})
		},
		prefix: "open",
		want:   map[string]Action{"open": ExecuteThenOverwrite, "read1": Execute, "read2": Execute},
		why:    map[string]Reason{"open": Needed, "read1": NotRequested},
	},
	{
		name: "the read before an executed read moved the offset",
		build: func(b *tb) {
			b.openat("open", 1, "/etc/vsftpd.conf", "/etc/vsftpd.conf", unix.O_RDONLY, 3)
			b.do("read1", 1, "read", 100, []uint64{3, 0x2000, 100})
			b.do("read2", 1, "read", 0, []uint64{3, 0x2000, 100})
		},
		prefix: "read1",
		want:   map[string]Action{"open": ExecuteThenOverwrite, "read1": ExecuteThenOverwrite, "read2": Execute},
	},
	{
		name: "lseek to the start cuts the chain of reads",
		build: func(b *tb) {
			b.openat("open", 1, "/etc/vsftpd.conf", "/etc/vsftpd.conf", unix.O_RDONLY, 3)
			b.do("read1", 1, "read", 100, []uint64{3, 0x2000, 100})
			b.do("seek", 1, "lseek", 0, []uint64{3, 0, unix.SEEK_SET})
			b.do("read2", 1, "read", 100, []uint64{3, 0x2000, 100})
		},
		prefix: "seek",
		want:   map[string]Action{"open": ExecuteThenOverwrite, "read1": Replay, "seek": ExecuteThenOverwrite, "read2": Execute},
	},
	{
		name: "nothing executed depends on the replayed calls",
		build: func(b *tb) {
			b.openat("open", 1, "/etc/hosts", "/etc/hosts", unix.O_RDONLY, 3)
			b.do("read", 1, "read", 10, []uint64{3, 0x2000, 100})
			b.do("close", 1, "close", 0, []uint64{3})
			b.do("later", 1, "getpid", 1, nil)
		},
		prefix: "close",
		want:   map[string]Action{"open": Replay, "read": Replay, "close": Replay, "later": Execute},
		why:    map[string]Reason{"open": Requested},
	},
	{
		name: "close executed needs the open, not the reads",
		build: func(b *tb) {
			b.openat("open", 1, "/etc/hosts", "/etc/hosts", unix.O_RDONLY, 3)
			b.do("read", 1, "read", 10, []uint64{3, 0x2000, 100})
			b.do("close", 1, "close", 0, []uint64{3})
		},
		prefix: "read",
		want:   map[string]Action{"open": ExecuteThenOverwrite, "read": Replay, "close": Execute},
	},
	{
		name: "mmap and clone always execute, and what they use runs",
		build: func(b *tb) {
			b.openat("open", 1, "/lib/libc.so.6", "/lib/libc.so.6", unix.O_RDONLY|unix.O_CLOEXEC, 3)
			b.do("mmap", 1, "mmap", 0x7000_0000, []uint64{0, 8192, unix.PROT_READ, unix.MAP_PRIVATE, 3, 0})
			b.do("close", 1, "close", 0, []uint64{3})
			b.do("brk", 1, "brk", 0x5000_0000, []uint64{0})
			b.spawn("clone", 1, 2, uint64(unix.SIGCHLD))
			b.do("child", 2, "getuid", 0, nil)
			b.do("exit", 2, "exit_group", 0, nil, noReturn())
		},
		prefix: all,
		want: map[string]Action{
			"open": ExecuteThenOverwrite, "mmap": Execute, "close": Replay, "brk": Execute,
			"clone": Execute, "child": Replay, "exit": Execute,
		},
		why: map[string]Reason{"mmap": Policy, "clone": Policy, "open": Needed},
	},
	{
		name: "calls on an internal pipe stay executed",
		build: func(b *tb) {
			b.do("pipe", 1, "pipe2", 0, []uint64{0x3000, 0}, mem(0, trace.PartWhole, trace.Out, fdPair(3, 4)))
			b.spawn("", 1, 2, uint64(unix.SIGCHLD))
			b.openat("open", 2, "/etc/hostname", "/etc/hostname", unix.O_RDONLY, 5)
			b.do("fread", 2, "read", 3, []uint64{5, 0x2000, 100})
			b.do("dup2", 2, "dup2", 1, []uint64{4, 1})
			b.do("write", 2, "write", 3, []uint64{1, 0x2000, 3})
			b.do("read", 1, "read", 3, []uint64{3, 0x2000, 100})
		},
		prefix: all,
		want: map[string]Action{
			"pipe": Execute, "dup2": Execute, "write": Execute, "read": Execute,
			"open": Replay, "fread": Replay,
		},
		why: map[string]Reason{"pipe": InternalResource, "write": InternalResource},
	},
	{
		name: "stdin executes by default",
		build: func(b *tb) {
			b.do("stdin", 1, "read", 3, []uint64{0, 0x2000, 100})
		},
		prefix: all,
		want:   map[string]Action{"stdin": Execute},
		why:    map[string]Reason{"stdin": InputResource},
	},
	{
		name: "stdin replayed when input may be",
		build: func(b *tb) {
			b.do("stdin", 1, "read", 3, []uint64{0, 0x2000, 100})
		},
		prefix: all,
		opts:   ClosureOptions{ReplayInput: true},
		want:   map[string]Action{"stdin": Replay},
	},
	{
		name: "chdir, mkdir, create and write all needed by an executed read by path",
		build: func(b *tb) {
			b.do("chdir", 1, "chdir", 0, nil, named("/srv", "/srv"))
			b.do("mkdir", 1, "mkdir", 0, []uint64{0, 0o755}, named("run", "/srv/run"))
			b.do("pid", 1, "getuid", 0, nil)
			b.openat("create", 1, "run/pid", "/srv/run/pid", unix.O_WRONLY|unix.O_CREAT, 3)
			b.do("write", 1, "write", 3, []uint64{3, 0x2000, 3})
			b.openat("check", 1, "/srv/run/pid", "/srv/run/pid", unix.O_RDONLY, 4)
		},
		prefix: "write",
		want: map[string]Action{
			"chdir": ExecuteThenOverwrite, "mkdir": ExecuteThenOverwrite, "create": ExecuteThenOverwrite,
			"write": ExecuteThenOverwrite, "pid": Replay, "check": Execute,
		},
	},
	{
		name: "a socket later bound",
		build: func(b *tb) {
			b.do("socket", 1, "socket", 3, []uint64{unix.AF_INET, unix.SOCK_STREAM, 0})
			b.do("opt", 1, "setsockopt", 0, []uint64{3, unix.SOL_SOCKET, unix.SO_REUSEADDR, 0x2000, 4})
			b.do("bind", 1, "bind", 0, []uint64{3, 0x3000, 16}, mem(1, trace.PartWhole, trace.In, sockaddr4("0.0.0.0", 80)))
		},
		prefix: "opt",
		want:   map[string]Action{"socket": ExecuteThenOverwrite, "opt": ExecuteThenOverwrite, "bind": Execute},
	},
	{
		// The thesis' web server, replayed whole: bind and listen run
		// (package replay), so the socket they act on is real, not a
		// memfd stand-in on which poll is always ready and accept fails
		// with ENOTSOCK; the setsockopt that bind depends on runs too.
		name: "a replayed bind and listen make their socket real",
		build: func(b *tb) {
			b.do("socket", 1, "socket", 3, []uint64{unix.AF_INET, unix.SOCK_STREAM, 0})
			b.do("opt", 1, "setsockopt", 0, []uint64{3, unix.SOL_SOCKET, unix.SO_REUSEADDR, 0x2000, 4})
			b.do("bind", 1, "bind", 0, []uint64{3, 0x3000, 16}, mem(1, trace.PartWhole, trace.In, sockaddr4("127.0.0.1", 8080)))
			b.do("listen", 1, "listen", 0, []uint64{3, 16})
			b.do("uname", 1, "uname", 0, []uint64{0x4000})
		},
		prefix: all,
		want: map[string]Action{
			"socket": ExecuteThenOverwrite, "opt": ExecuteThenOverwrite, "bind": ExecuteThenOverwrite,
			"listen": Replay, "uname": Replay,
		},
		why: map[string]Reason{"socket": Needed, "bind": Needed},
	},
	{
		name: "a failed call defines nothing",
		build: func(b *tb) {
			b.do("mkdir", 1, "mkdir", -int64(unix.EEXIST), []uint64{0, 0o755}, named("/var/run/mpd", "/var/run/mpd"))
			b.openat("create", 1, "/var/run/mpd/pid", "/var/run/mpd/pid", unix.O_WRONLY|unix.O_CREAT, 3)
		},
		prefix: "mkdir",
		want:   map[string]Action{"mkdir": Replay, "create": Execute},
	},
	{
		// tar -xf a.tar -C out: the open of out is the dirfd of the
		// mkdirat and the O_CREAT open, which run even replayed; replayed
		// too, it would be a memfd stand-in, no directory (ENOTDIR). The
		// mkdirat is needed by the open under it, which runs.
		name: "a replayed creation needs the open of its dirfd",
		build: func(b *tb) {
			b.openat("dir", 1, "out", "/srv/out", unix.O_RDONLY|unix.O_DIRECTORY, 3)
			b.do("mkdirat", 1, "mkdirat", 0, []uint64{3, 0, 0o755}, named("bin", "/srv/out/bin"))
			b.do("create", 1, "openat", 4, []uint64{3, 0, unix.O_WRONLY | unix.O_CREAT | unix.O_EXCL, 0o755}, named("bin/tool", "/srv/out/bin/tool"))
			b.do("write", 1, "write", 3, []uint64{4, 0x2000, 3})
			b.do("stat", 1, "newfstatat", 0, []uint64{atCWD, 0, 0x3000, 0}, named("/etc/hosts", "/etc/hosts"))
		},
		prefix: all,
		want: map[string]Action{
			// The write into the created file is a kept effect too: it
			// needs the real open of its file.
			"dir": ExecuteThenOverwrite, "mkdirat": ExecuteThenOverwrite, "create": ExecuteThenOverwrite, "write": Replay, "stat": Replay,
		},
		why: map[string]Reason{"dir": Needed, "mkdirat": Needed, "create": Needed, "write": Requested},
	},
	{
		// mkdir -p ro/out: chdir("ro"), then mkdir("out"), which runs
		// even replayed, relative to the kernel's working directory.
		name: "a replayed creation needs the chdir its path resolves against",
		build: func(b *tb) {
			b.do("parent", 1, "mkdir", -int64(unix.EEXIST), []uint64{0, 0o777}, named("ro", "/srv/ro"))
			b.do("chdir", 1, "chdir", 0, nil, named("ro", "/srv/ro"))
			b.do("mkdir", 1, "mkdir", 0, []uint64{0, 0o777}, named("out", "/srv/ro/out"))
		},
		prefix: all,
		want:   map[string]Action{"parent": Replay, "chdir": ExecuteThenOverwrite, "mkdir": Replay},
		why:    map[string]Reason{"chdir": Needed},
	},
	{
		name: "a creation that failed when recorded is skipped and needs nothing",
		build: func(b *tb) {
			b.do("chdir", 1, "chdir", 0, nil, named("/srv", "/srv"))
			b.do("mkdir", 1, "mkdir", -int64(unix.EEXIST), []uint64{0, 0o777}, named("out", "/srv/out"))
		},
		prefix: all,
		want:   map[string]Action{"chdir": Replay, "mkdir": Replay},
	},
	{
		name: "a call that never returned executes",
		build: func(b *tb) {
			b.do("read", 1, "read", 0, []uint64{5, 0x2000, 100}, noReturn())
		},
		prefix: all,
		want:   map[string]Action{"read": Execute},
		why:    map[string]Reason{"read": NoResult},
	},
}

func TestDepsClosure(t *testing.T) {
	for _, tc := range closureCases {
		t.Run(tc.name, func(t *testing.T) {
			b := newTB(t)
			tc.build(b)
			g := b.graph()
			last := b.Seq()
			if tc.prefix != all {
				last = b.l(tc.prefix)
			}
			replayed := func(seq uint64) bool { return seq <= last }
			p := g.ClosureWith(replayed, tc.opts)
			for l, want := range tc.want {
				if got := p.Action(b.l(l)); got != want {
					t.Errorf("%s (#%d): %s (%s), want %s", l, b.l(l), got, p.Reason(b.l(l)), want)
				}
			}
			for l, want := range tc.why {
				if got := p.Reason(b.l(l)); got != want {
					t.Errorf("%s: reason %s, want %s", l, got, want)
				}
			}
			checkPlan(t, g, p)
			if again := g.ClosureWith(replayed, tc.opts); !maps.Equal(again.Actions(), p.Actions()) {
				t.Error("the same question gave another plan")
			}
		})
	}
}

// checkPlan checks a plan's invariants: every call that runs (executed,
// or a replayed creation, which runs all the same) has its dependencies
// run, NeededBy names a dependent that runs, counts add up.
func checkPlan(t *testing.T, g *Graph, p *Plan) {
	t.Helper()
	acts := p.Actions()
	n := 0
	for _, a := range []Action{Replay, Execute, ExecuteThenOverwrite} {
		n += p.Count(a)
	}
	if n != len(g.Calls()) || len(acts) != n {
		t.Errorf("counts add up to %d, %d actions, for %d calls", n, len(acts), len(g.Calls()))
	}
	runs := func(seq uint64) bool { return acts[seq] != Replay || g.RunsWhenReplayed(seq) }
	for seq, a := range acts {
		if !runs(seq) {
			continue
		}
		for _, e := range g.Deps(seq) {
			if j, _ := g.pos(e.To); acts[e.To] == Replay && g.info[j].flags&served == 0 && !g.RunsWhenReplayed(e.To) {
				t.Errorf("#%d runs (%s) but #%d, which it depends on (%s), is replayed", seq, a, e.To, e.Why)
			}
		}
		if a != ExecuteThenOverwrite {
			continue
		}
		by, ok := p.NeededBy(seq)
		if _, dep := edge(g, by, seq); !ok || !dep || !runs(by) {
			t.Errorf("#%d: NeededBy %d, %v: not a call that runs and depends on it", seq, by, ok)
		}
	}
}
