package depgraph

import (
	"slices"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// dep is an edge a case expects, between labelled calls, with at least
// the reasons in why.
type dep struct {
	from, to string
	why      Why
}

// nodep is an edge a case expects not to be there.
type nodep struct{ from, to string }

// groupWant is what a case expects of the group of a labelled call.
type groupWant struct {
	call  string
	kind  GroupKind
	name  string
	class Class
}

var edgeCases = []struct {
	name   string
	build  func(b *tb)
	deps   []dep
	none   []nodep
	groups []groupWant
	// same lists calls that must be in one group.
	same [][]string
}{
	{
		name: "fd from open used by a read 100 calls later",
		build: func(b *tb) {
			b.openat("open", 1, "/etc/hosts", "/etc/hosts", unix.O_RDONLY|unix.O_CLOEXEC, 3)
			for i := 0; i < 100; i++ {
				b.do("", 1, "getuid", 0, nil)
			}
			b.do("read", 1, "read", 220, []uint64{3, 0x2000, 4096}, fdPath("/etc/hosts"))
		},
		deps:   []dep{{"read", "open", ByFD | ByState | ByPosition}},
		groups: []groupWant{{"read", GroupFile, "/etc/hosts", Environment}},
		same:   [][]string{{"open", "read"}},
	},
	{
		name: "dup2 onto fd 1, then write",
		build: func(b *tb) {
			b.openat("open", 1, "/tmp/out", "/tmp/out", unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC, 3)
			b.do("dup2", 1, "dup2", 1, []uint64{3, 1})
			b.do("close", 1, "close", 0, []uint64{3})
			b.do("write", 1, "write", 3, []uint64{1, 0x2000, 3})
		},
		deps: []dep{{"write", "dup2", ByFD}, {"write", "open", ByState | ByPosition}, {"dup2", "open", ByFD}},
		none: []nodep{{"write", "close"}},
		same: [][]string{{"open", "dup2", "close", "write"}},
	},
	{
		name: "fork inherits an fd, the child reads it",
		build: func(b *tb) {
			b.openat("open", 1, "/etc/passwd", "/etc/passwd", unix.O_RDONLY, 3)
			b.spawn("fork", 1, 2, uint64(unix.SIGCHLD))
			b.do("pclose", 1, "close", 0, []uint64{3})
			b.do("read", 2, "read", 10, []uint64{3, 0x2000, 4096})
		},
		deps: []dep{{"read", "open", ByFD | ByPosition}, {"read", "fork", ByProcess}},
		none: []nodep{{"read", "pclose"}},
		same: [][]string{{"open", "pclose", "read"}},
	},
	{
		name: "CLONE_FILES shares the fd table, fork copies it",
		build: func(b *tb) {
			b.spawn("", 1, 2, unix.CLONE_FILES|uint64(unix.SIGCHLD))
			b.spawn("", 1, 3, uint64(unix.SIGCHLD))
			b.openat("shared", 2, "/etc/group", "/etc/group", unix.O_RDONLY, 4)
			b.openat("own", 3, "/etc/shadow", "/etc/shadow", unix.O_RDONLY, 5)
			b.do("read4", 1, "read", 10, []uint64{4, 0x2000, 4096})
			b.do("read5", 1, "read", 10, []uint64{5, 0x2000, 4096})
		},
		deps: []dep{{"read4", "shared", ByFD}},
		none: []nodep{{"read5", "own"}},
	},
	{
		name: "mkdir, then open O_CREAT beneath it",
		build: func(b *tb) {
			b.do("mkdir", 1, "mkdir", 0, []uint64{0, 0o755}, named("/var/run/mpd", "/var/run/mpd"))
			b.openat("create", 1, "/var/run/mpd/pid", "/var/run/mpd/pid", unix.O_WRONLY|unix.O_CREAT, 3)
			b.openat("other", 1, "/var/run/other", "/var/run/other", unix.O_RDONLY, 4)
		},
		deps:   []dep{{"create", "mkdir", ByContent}},
		none:   []nodep{{"other", "mkdir"}},
		groups: []groupWant{{"mkdir", GroupDirectory, "/var/run/mpd", Environment}, {"create", GroupFile, "/var/run/mpd/pid", Environment}},
	},
	{
		name: "write, then read the same file back by path",
		build: func(b *tb) {
			b.openat("create", 1, "/tmp/f", "/tmp/f", unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC, 3)
			b.do("write", 1, "write", 3, []uint64{3, 0x2000, 3})
			b.do("", 1, "close", 0, []uint64{3})
			b.do("stat", 1, "newfstatat", 0, []uint64{atCWD, 0, 0x3000, 0}, named("/tmp/f", "/tmp/f"))
			b.openat("reopen", 1, "/tmp/f", "/tmp/f", unix.O_RDONLY, 3)
			b.do("read", 1, "read", 3, []uint64{3, 0x2000, 4096})
		},
		deps: []dep{{"reopen", "write", ByContent}, {"stat", "write", ByContent}, {"read", "reopen", ByFD}, {"write", "create", ByFD}},
		none: []nodep{{"read", "write"}, {"read", "create"}},
	},
	{
		name: "write through one fd, pread through another",
		build: func(b *tb) {
			b.openat("rw", 1, "/tmp/db", "/tmp/db", unix.O_RDWR|unix.O_CREAT, 3)
			b.openat("ro", 1, "/tmp/db", "/tmp/db", unix.O_RDONLY, 4)
			b.do("write", 1, "write", 3, []uint64{3, 0x2000, 3})
			b.do("pread", 1, "pread64", 3, []uint64{4, 0x2000, 3, 0})
		},
		deps: []dep{{"pread", "write", ByContent}, {"pread", "ro", ByFD}},
		none: []nodep{{"pread", "rw"}},
	},
	{
		name: "chdir, then a relative open",
		build: func(b *tb) {
			b.do("chdir", 1, "chdir", 0, nil, named("/srv", "/srv"))
			b.openat("rel", 1, "data.txt", "/srv/data.txt", unix.O_RDONLY, 3)
			b.openat("abs", 1, "/srv/data.txt", "/srv/data.txt", unix.O_RDONLY, 4)
			b.spawn("", 1, 2, uint64(unix.SIGCHLD))
			b.openat("childrel", 2, "x", "/srv/x", unix.O_RDONLY, 5)
			b.do("childcd", 2, "chdir", 0, nil, named("/tmp", "/tmp"))
			b.openat("parentrel", 1, "y", "/srv/y", unix.O_RDONLY, 5)
		},
		deps: []dep{{"rel", "chdir", ByCwd}, {"childrel", "chdir", ByCwd}, {"parentrel", "chdir", ByCwd}},
		none: []nodep{{"abs", "chdir"}, {"parentrel", "childcd"}},
	},
	{
		name: "rename of a file and of a directory",
		build: func(b *tb) {
			b.openat("tmp", 1, "/etc/app.conf.tmp", "/etc/app.conf.tmp", unix.O_WRONLY|unix.O_CREAT, 3)
			b.do("write", 1, "write", 5, []uint64{3, 0x2000, 5})
			b.do("", 1, "close", 0, []uint64{3})
			b.do("rename", 1, "rename", 0, nil, named("/etc/app.conf.tmp", "/etc/app.conf.tmp"), named("/etc/app.conf", "/etc/app.conf"))
			b.openat("open", 1, "/etc/app.conf", "/etc/app.conf", unix.O_RDONLY, 3)
			b.openat("old", 1, "/etc/app.conf.tmp", "/etc/app.conf.tmp", unix.O_RDONLY, -2)

			b.do("mkdir", 1, "mkdir", 0, []uint64{0, 0o755}, named("/a", "/a"))
			b.openat("af", 1, "/a/f", "/a/f", unix.O_WRONLY|unix.O_CREAT, 4)
			b.do("awrite", 1, "write", 5, []uint64{4, 0x2000, 5})
			b.do("mv", 1, "rename", 0, nil, named("/a", "/a"), named("/b", "/b"))
			b.openat("bf", 1, "/b/f", "/b/f", unix.O_RDONLY, 5)
		},
		deps: []dep{
			{"rename", "write", ByContent}, {"open", "rename", ByContent}, {"old", "rename", ByContent},
			{"mv", "awrite", ByContent}, {"bf", "mv", ByContent}, {"bf", "awrite", ByContent},
		},
		none: []nodep{{"bf", "af"}},
	},
	{
		name: "pipe between two processes",
		build: func(b *tb) {
			b.do("pipe", 1, "pipe2", 0, []uint64{0x3000, 0}, mem(0, trace.PartWhole, trace.Out, fdPair(3, 4)), fdPath("pipe:[77]"))
			b.spawn("fork", 1, 2, uint64(unix.SIGCHLD))
			b.do("", 2, "close", 0, []uint64{3})
			b.do("write", 2, "write", 5, []uint64{4, 0x2000, 5})
			b.do("", 1, "close", 0, []uint64{4})
			b.do("read", 1, "read", 5, []uint64{3, 0x2000, 4096})
		},
		deps:   []dep{{"write", "pipe", ByFD}, {"read", "pipe", ByFD}},
		none:   []nodep{{"read", "write"}},
		groups: []groupWant{{"read", GroupPipe, "pipe:[77] (#1)", Internal}},
		same:   [][]string{{"pipe", "write", "read"}},
	},
	{
		name: "socketpair shared with a child",
		build: func(b *tb) {
			b.do("pair", 1, "socketpair", 0, []uint64{unix.AF_UNIX, unix.SOCK_STREAM, 0, 0x3000},
				mem(3, trace.PartWhole, trace.Out, fdPair(5, 6)), fdPath("socket:[12]"))
			b.spawn("", 1, 2, uint64(unix.SIGCHLD))
			b.do("send", 2, "sendto", 2, []uint64{6, 0x2000, 2, 0, 0, 0})
			b.do("recv", 1, "recvfrom", 2, []uint64{5, 0x2000, 2, 0, 0, 0})
		},
		deps:   []dep{{"send", "pair", ByFD}, {"recv", "pair", ByFD}},
		groups: []groupWant{{"recv", GroupSocketPair, "socketpair socket:[12] (#1)", Internal}},
		same:   [][]string{{"pair", "send", "recv"}},
	},
	{
		name: "tcp connect to a traced listener, and to an outside address",
		build: func(b *tb) {
			b.do("ssock", 1, "socket", 3, []uint64{unix.AF_INET, unix.SOCK_STREAM, 0})
			b.do("opt", 1, "setsockopt", 0, []uint64{3, unix.SOL_SOCKET, unix.SO_REUSEADDR, 0x2000, 4})
			b.do("bind", 1, "bind", 0, []uint64{3, 0x3000, 16}, mem(1, trace.PartWhole, trace.In, sockaddr4("0.0.0.0", 8080)))
			b.do("listen", 1, "listen", 0, []uint64{3, 5})
			b.spawn("", 1, 2, uint64(unix.SIGCHLD))
			b.do("", 2, "close", 0, []uint64{3})
			b.do("csock", 2, "socket", 3, []uint64{unix.AF_INET, unix.SOCK_STREAM, 0})
			b.do("connect", 2, "connect", 0, []uint64{3, 0x3000, 16}, mem(1, trace.PartWhole, trace.In, sockaddr4("127.0.0.1", 8080)))
			b.do("send", 2, "write", 4, []uint64{3, 0x2000, 4})
			b.do("osock", 2, "socket", 4, []uint64{unix.AF_INET, unix.SOCK_STREAM, 0})
			b.do("oconnect", 2, "connect", 0, []uint64{4, 0x3000, 16}, mem(1, trace.PartWhole, trace.In, sockaddr4("93.184.216.34", 80)))
			b.do("osend", 2, "write", 4, []uint64{4, 0x2000, 4})
			b.do("accept", 1, "accept", 4, []uint64{3, 0x3000, 0x3100}, mem(1, trace.PartWhole, trace.Out, sockaddr4("127.0.0.1", 51000)))
			b.do("recv", 1, "read", 4, []uint64{4, 0x2000, 4096})
		},
		deps: []dep{
			{"bind", "opt", ByState}, {"listen", "bind", ByState}, {"accept", "listen", ByState},
			{"recv", "accept", ByFD}, {"send", "connect", ByState}, {"connect", "csock", ByFD},
		},
		groups: []groupWant{
			{"bind", GroupListener, "tcp 0.0.0.0:8080", Environment},
			{"send", GroupConnection, "tcp 127.0.0.1:8080", Internal},
			{"osend", GroupConnection, "tcp 93.184.216.34:80", Environment},
			{"recv", GroupAccepted, "tcp 0.0.0.0:8080", Internal},
		},
		same: [][]string{{"csock", "connect", "send"}, {"ssock", "opt", "bind", "listen"}},
	},
	{
		name: "unix socket to a traced listener",
		build: func(b *tb) {
			b.do("ssock", 1, "socket", 3, []uint64{unix.AF_UNIX, unix.SOCK_STREAM, 0})
			b.do("bind", 1, "bind", 0, []uint64{3, 0x3000, 16}, mem(1, trace.PartWhole, trace.In, sockaddrUnix("/run/app.sock")))
			b.do("csock", 1, "socket", 4, []uint64{unix.AF_UNIX, unix.SOCK_STREAM | unix.SOCK_CLOEXEC, 0})
			b.do("connect", 1, "connect", 0, []uint64{4, 0x3000, 16}, mem(1, trace.PartWhole, trace.In, sockaddrUnix("/run/app.sock")))
		},
		groups: []groupWant{{"connect", GroupConnection, "unix /run/app.sock", Internal}, {"bind", GroupListener, "unix /run/app.sock", Environment}},
	},
	{
		name: "accept by a traced server from an untraced client",
		build: func(b *tb) {
			b.do("sock", 1, "socket", 3, []uint64{unix.AF_INET, unix.SOCK_STREAM, 0})
			b.do("bind", 1, "bind", 0, []uint64{3, 0x3000, 16}, mem(1, trace.PartWhole, trace.In, sockaddr4("0.0.0.0", 21)))
			b.do("listen", 1, "listen", 0, []uint64{3, 5})
			b.do("accept", 1, "accept4", 4, []uint64{3, 0x3000, 0x3100, unix.SOCK_CLOEXEC}, mem(1, trace.PartWhole, trace.Out, sockaddr4("10.0.0.5", 40000)))
			b.do("recv", 1, "read", 10, []uint64{4, 0x2000, 4096})
			b.do("reply", 1, "write", 10, []uint64{4, 0x2000, 10})
		},
		deps: []dep{{"recv", "accept", ByFD}, {"reply", "accept", ByFD}},
		groups: []groupWant{
			{"recv", GroupAccepted, "tcp 0.0.0.0:21", Input},
			{"listen", GroupListener, "tcp 0.0.0.0:21", Environment},
		},
		same: [][]string{{"accept", "recv", "reply"}},
	},
	{
		name: "file mapping: munmap depends on the mmap",
		build: func(b *tb) {
			b.openat("open", 1, "/lib/libc.so.6", "/lib/libc.so.6", unix.O_RDONLY|unix.O_CLOEXEC, 3)
			b.do("mmap", 1, "mmap", 0x7000_0000, []uint64{0, 8192, unix.PROT_READ, unix.MAP_PRIVATE, 3, 0})
			b.do("", 1, "close", 0, []uint64{3})
			b.do("anon", 1, "mmap", 0x7100_0000, []uint64{0, 4096, unix.PROT_READ, unix.MAP_PRIVATE | unix.MAP_ANONYMOUS, 1<<64 - 1, 0})
			b.do("munmap", 1, "munmap", 0, []uint64{0x7000_0000, 8192})
			b.do("anonunmap", 1, "munmap", 0, []uint64{0x7100_0000, 4096})
		},
		deps:   []dep{{"mmap", "open", ByFD}, {"munmap", "mmap", ByMapping}},
		none:   []nodep{{"anonunmap", "mmap"}},
		groups: []groupWant{{"munmap", GroupFile, "/lib/libc.so.6", Environment}, {"anon", GroupMemory, "1", Internal}},
	},
	{
		name: "threads and exec: calls depend on what made their thread",
		build: func(b *tb) {
			b.spawnThread("clone", 1, 7)
			b.do("tcall", 1, "getuid", 0, nil, on(7))
			b.do("exec", 1, "execve", 0, nil, named("/bin/prog", "/bin/prog"))
			b.do("after", 1, "getuid", 0, nil)
		},
		deps:   []dep{{"tcall", "clone", ByProcess}, {"after", "exec", ByProcess}},
		groups: []groupWant{{"exec", GroupFile, "/bin/prog", Environment}, {"clone", GroupProcess, "1 (/bin/prog)", Internal}, {"after", GroupKernel, "getuid", Environment}},
	},
	{
		name: "epoll watching a pipe is internal",
		build: func(b *tb) {
			b.do("ep", 1, "epoll_create1", 5, []uint64{unix.EPOLL_CLOEXEC})
			b.do("pipe", 1, "pipe2", 0, []uint64{0x3000, 0}, mem(0, trace.PartWhole, trace.Out, fdPair(3, 4)))
			b.do("ctl", 1, "epoll_ctl", 0, []uint64{5, unix.EPOLL_CTL_ADD, 3, 0x2000})
			b.do("wait", 1, "epoll_wait", 1, []uint64{5, 0x2000, 8, 1<<32 - 1})
		},
		deps:   []dep{{"wait", "ctl", ByState}, {"ctl", "pipe", ByFD}, {"ctl", "ep", ByFD}},
		groups: []groupWant{{"wait", GroupEpoll, "epoll (#1)", Internal}},
	},
	{
		name: "poll on stdin is input",
		build: func(b *tb) {
			pfd := []byte{0, 0, 0, 0, 1, 0, 0, 0}
			b.do("poll", 1, "poll", 1, []uint64{0x2000, 1, 1<<32 - 1}, mem(0, trace.PartWhole, trace.In, pfd))
			b.do("read", 1, "read", 3, []uint64{0, 0x2000, 4096}, fdPath("/dev/pts/0"))
		},
		groups: []groupWant{{"poll", GroupStdio, "stdin (/dev/pts/0)", Input}},
		same:   [][]string{{"poll", "read"}},
	},
	{
		name: "umask, then a created file",
		build: func(b *tb) {
			b.do("umask", 1, "umask", 0o22, []uint64{0o77})
			b.openat("create", 1, "/tmp/s", "/tmp/s", unix.O_WRONLY|unix.O_CREAT, 3)
			b.openat("read", 1, "/etc/hosts", "/etc/hosts", unix.O_RDONLY, 4)
		},
		deps: []dep{{"create", "umask", ByAttrs}},
		none: []nodep{{"read", "umask"}},
	},
	{
		name: "getdents sees the entries made after its open",
		build: func(b *tb) {
			b.openat("open", 1, "/tmp/d", "/tmp/d", unix.O_RDONLY|unix.O_DIRECTORY, 3)
			b.openat("mk", 1, "/tmp/d/x", "/tmp/d/x", unix.O_WRONLY|unix.O_CREAT, 4)
			b.do("ls", 1, "getdents64", 48, []uint64{3, 0x2000, 4096})
			b.openat("reopen", 1, "/tmp/d", "/tmp/d", unix.O_RDONLY|unix.O_DIRECTORY, 5)
		},
		deps:   []dep{{"ls", "mk", ByContent}, {"reopen", "mk", ByContent}},
		groups: []groupWant{{"ls", GroupDirectory, "/tmp/d", Environment}},
	},
	{
		name: "dirfd-relative open and AT_EMPTY_PATH stat",
		build: func(b *tb) {
			b.openat("dir", 1, "/etc", "/etc", unix.O_RDONLY|unix.O_DIRECTORY, 3)
			b.do("at", 1, "openat", 4, []uint64{3, 0, unix.O_RDONLY, 0}, named("hosts", "/etc/hosts"))
			b.do("fstat", 1, "newfstatat", 0, []uint64{4, 0, 0x3000, unix.AT_EMPTY_PATH}, named("", "/etc/hosts"))
		},
		deps:   []dep{{"at", "dir", ByFD}, {"fstat", "at", ByFD}},
		groups: []groupWant{{"fstat", GroupFile, "/etc/hosts", Environment}},
	},
}

func TestDepsEdges(t *testing.T) {
	for _, tc := range edgeCases {
		t.Run(tc.name, func(t *testing.T) {
			b := newTB(t)
			tc.build(b)
			g := b.graph()
			for _, d := range tc.deps {
				e, ok := edge(g, b.l(d.from), b.l(d.to))
				switch {
				case !ok:
					t.Errorf("%s (#%d) does not depend on %s (#%d); its edges: %v", d.from, b.l(d.from), d.to, b.l(d.to), g.Deps(b.l(d.from)))
				case e.Why&d.why != d.why:
					t.Errorf("%s -> %s: why %s, want at least %s", d.from, d.to, e.Why, d.why)
				}
			}
			for _, d := range tc.none {
				if e, ok := edge(g, b.l(d.from), b.l(d.to)); ok {
					t.Errorf("%s depends on %s (%s); want no edge", d.from, d.to, e.Why)
				}
			}
			for _, w := range tc.groups {
				gr := g.GroupOf(b.l(w.call))
				if gr.Kind != w.kind || gr.Name != w.name || gr.Class != w.class {
					t.Errorf("group of %s: %s %q %s; want %s %q %s", w.call, gr.Kind, gr.Name, gr.Class, w.kind, w.name, w.class)
				}
			}
			for _, set := range tc.same {
				want := g.GroupOf(b.l(set[0]))
				for _, l := range set[1:] {
					if got := g.GroupOf(b.l(l)); got != want {
						t.Errorf("%s is in group %s, %s in %s; want one group", set[0], want.Title(), l, got.Title())
					}
				}
			}
			checkGraph(t, g)
		})
	}
}

// checkGraph checks the invariants every graph has: every call in
// exactly one group, groups numbered by first call, edges to calls of
// the trace, resources named.
func checkGraph(t *testing.T, g *Graph) {
	t.Helper()
	seen := map[uint64]GroupID{}
	var firsts []uint64
	for i, gr := range g.Groups() {
		if gr.ID != GroupID(i+1) || len(gr.Calls) == 0 || !slices.IsSorted(gr.Calls) {
			t.Errorf("group %d (%s): ID or calls out of order: %v", gr.ID, gr.Title(), gr.Calls)
			continue
		}
		firsts = append(firsts, gr.Calls[0])
		for _, s := range gr.Calls {
			if other, dup := seen[s]; dup {
				t.Errorf("call %d in groups %d and %d", s, other, gr.ID)
			}
			seen[s] = gr.ID
			if g.GroupOf(s) != gr {
				t.Errorf("GroupOf(%d) is not group %d", s, gr.ID)
			}
		}
	}
	if !slices.IsSorted(firsts) {
		t.Errorf("groups not numbered by first call: %v", firsts)
	}
	for _, c := range g.Calls() {
		if _, ok := seen[c.Seq]; !ok {
			t.Errorf("call %d is in no group", c.Seq)
		}
		if g.ClassOf(c.Seq) == 0 {
			t.Errorf("call %d has no class", c.Seq)
		}
	}
	for _, e := range g.Edges() {
		if _, ok := g.Call(e.To); !ok || e.From == e.To || e.Why == 0 {
			t.Errorf("bad edge %+v", e)
		}
	}
	for _, r := range g.Resources() {
		if r.Name() == "" || r.Class == 0 || g.Resource(r.ID) != r {
			t.Errorf("resource %+v: no name, class or wrong id", r)
		}
	}
}

func TestDepsCloseOnExec(t *testing.T) {
	b := newTB(t)
	b.openat("3", 1, "/a", "/a", unix.O_RDONLY|unix.O_CLOEXEC, 3)
	b.openat("4", 1, "/b", "/b", unix.O_RDONLY, 4)
	b.do("", 1, "fcntl", 0, []uint64{4, unix.F_SETFD, unix.FD_CLOEXEC})
	b.openat("5", 1, "/c", "/c", unix.O_RDONLY|unix.O_CLOEXEC, 5)
	b.do("", 1, "fcntl", 0, []uint64{5, unix.F_SETFD, 0})
	b.do("6", 1, "dup3", 6, []uint64{5, 6, unix.O_CLOEXEC})
	b.do("7", 1, "dup2", 7, []uint64{5, 7})
	b.do("8", 1, "pipe2", 0, []uint64{0x3000, unix.O_CLOEXEC}, mem(0, trace.PartWhole, trace.Out, fdPair(8, 9)))
	b.do("10", 1, "socket", 10, []uint64{unix.AF_INET, unix.SOCK_STREAM | unix.SOCK_CLOEXEC, 0})
	b.do("11", 1, "fcntl", 11, []uint64{5, unix.F_DUPFD_CLOEXEC, 11})
	b.openat("12", 1, "/d", "/d", unix.O_RDONLY, 12)
	b.do("", 1, "ioctl", 0, []uint64{12, 0x5451 /* FIOCLEX */, 0})
	b.openat("13", 1, "/e", "/e", unix.O_RDONLY, 13)
	b.do("", 1, "close_range", 0, []uint64{13, 13, unix.CLOSE_RANGE_CLOEXEC})
	b.do("14", 1, "fcntl", 14, []uint64{5, unix.F_DUPFD, 14})
	b.do("15", 1, "eventfd2", 15, []uint64{0, unix.EFD_CLOEXEC})
	b.do("exec", 1, "execve", 0, nil, named("/bin/prog", "/bin/prog"))
	uses := map[int32]uint64{}
	for fd := int32(3); fd <= 15; fd++ {
		uses[fd] = b.do("", 1, "fstat", 0, []uint64{uint64(fd), 0x3000})
	}
	g := b.graph()
	kept := map[int32]string{5: "5", 7: "7", 14: "14"}
	for fd := int32(3); fd <= 15; fd++ {
		use := uses[fd]
		var byFD []uint64
		for _, e := range g.Deps(use) {
			if e.Why&ByFD != 0 {
				byFD = append(byFD, e.To)
			}
		}
		if l, ok := kept[fd]; ok {
			if !slices.Equal(byFD, []uint64{b.l(l)}) {
				t.Errorf("fd %d survives exec: fstat depends by fd on %v, want #%d", fd, byFD, b.l(l))
			}
			continue
		}
		if len(byFD) != 0 || g.ClassOf(use) != Input {
			t.Errorf("fd %d is close-on-exec: fstat depends by fd on %v and is %s; want nothing, an unknown (inherited) fd", fd, byFD, g.ClassOf(use))
		}
	}
}

func TestDepsBuildRejects(t *testing.T) {
	b := newTB(t)
	b.do("", 1, "getpid", 1, nil)
	b.do("", 1, "getpid", 1, nil)
	b.Events[1].Call.Seq = 1
	if _, err := Build(b.Table, &trace.Header{Arch: "amd64"}, b.Events); err == nil {
		t.Error("a repeated seq was accepted")
	}
	if _, err := Build(b.Table, &trace.Header{Arch: "arm64"}, nil); err == nil {
		t.Error("an arm64 trace was accepted with the amd64 table")
	}
}

func TestDepsDependsOnIsTransitive(t *testing.T) {
	b := newTB(t)
	b.do("chdir", 1, "chdir", 0, nil, named("/srv", "/srv"))
	b.do("mkdir", 1, "mkdir", 0, []uint64{0, 0o755}, named("out", "/srv/out"))
	b.openat("create", 1, "out/log", "/srv/out/log", unix.O_WRONLY|unix.O_CREAT, 3)
	b.do("write", 1, "write", 3, []uint64{3, 0x2000, 3})
	b.do("", 1, "getpid", 1, nil)
	b.do("cat", 1, "newfstatat", 0, []uint64{atCWD, 0, 0x3000, 0}, named("/srv/out/log", "/srv/out/log"))
	g := b.graph()
	want := []uint64{b.l("chdir"), b.l("mkdir"), b.l("create"), b.l("write")}
	if got := g.DependsOn(b.l("cat")); !slices.Equal(got, want) {
		t.Errorf("DependsOn(cat) = %v, want %v", got, want)
	}
}
