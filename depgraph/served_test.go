package depgraph

import (
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// fileObjects is a trace's file objects, by ID.
type fileObjects map[uint32]*trace.FileObject

func (f fileObjects) File(id uint32) *trace.FileObject { return f[id] }

// regular is a regular file object whose content the trace keeps unless
// why says otherwise.
func regular(id uint32, path, why string) *trace.FileObject {
	f := &trace.FileObject{ID: id, Path: path, Size: 8192, Mode: unix.S_IFREG | 0o644, Why: why}
	if why == "" {
		f.Chunks = []trace.Hash{{1}}
	}
	return f
}

// servedTrace is the dynamic loader's calls on a library, then a
// program's on a configuration file and on a directory: each open names
// its file object.
func servedTrace(b *tb) {
	open := func(label, path string, fd int64, obj uint32, flags uint64) {
		c := b.Call(label, 1, 1, "openat", fd, []uint64{atCWD, 0, flags, 0}, named(path, path))
		c.Obj = obj
	}
	open("lib", "/usr/lib/libx.so", 3, 1, unix.O_RDONLY|unix.O_CLOEXEC)
	b.do("libread", 1, "read", 832, []uint64{3, 0x1000, 832}, fdPath("/usr/lib/libx.so"))
	b.do("libstat", 1, "fstat", 0, []uint64{3, 0x2000}, fdPath("/usr/lib/libx.so"))
	b.do("libmap", 1, "mmap", 0x7000_0000, []uint64{0, 8192, unix.PROT_READ | unix.PROT_EXEC, unix.MAP_PRIVATE | unix.MAP_DENYWRITE, 3, 0})
	b.do("libclose", 1, "close", 0, []uint64{3}, fdPath("/usr/lib/libx.so"))
	open("conf", "/etc/app.conf", 3, 2, unix.O_RDONLY)
	b.do("confread", 1, "read", 100, []uint64{3, 0x1000, 4096}, fdPath("/etc/app.conf"))
	b.do("confclose", 1, "close", 0, []uint64{3}, fdPath("/etc/app.conf"))
	open("data", "/var/lib/app/data", 4, 3, unix.O_RDWR)
	b.do("setfl", 1, "fcntl", 0, []uint64{4, unix.F_SETFL, unix.O_NONBLOCK}, fdPath("/var/lib/app/data"))
	b.do("dataread", 1, "read", 10, []uint64{4, 0x1000, 10}, fdPath("/var/lib/app/data"))
	open("dir", "/etc/app.d", 5, 4, unix.O_RDONLY|unix.O_DIRECTORY)
	b.do("dirstat", 1, "fstat", 0, []uint64{5, 0x2000}, fdPath("/etc/app.d"))
}

// TestClosureServesKeptFiles: an open whose file the trace keeps stays
// replayed when the calls that execute on its fd need only the content
// (the loader's mmap, reads past the prefix, fstat, close); one whose
// content is not kept executes and the plan says why, with the remedy; a
// call that needs the real description (F_SETFL) still makes its open
// run; a graph without file objects serves nothing.
func TestClosureServesKeptFiles(t *testing.T) {
	files := fileObjects{
		1: regular(1, "/usr/lib/libx.so", ""),
		2: regular(2, "/etc/app.conf", trace.ContentExcluded),
		3: regular(3, "/var/lib/app/data", ""),
		4: {ID: 4, Path: "/etc/app.d", Mode: unix.S_IFDIR | 0o755},
	}
	cases := []struct {
		name    string
		files   Files
		prefix  string // the last call replayed; "": all
		want    map[string]Action
		why     map[string]Reason
		noteHas map[string]string
	}{
		{
			name: "everything replayed", files: files,
			want: map[string]Action{"lib": Replay, "libmap": Execute, "conf": Replay, "data": Replay, "dir": Replay},
		},
		{
			name: "F_SETFL executed needs the real open", files: files, prefix: "data",
			want: map[string]Action{"data": ExecuteThenOverwrite, "setfl": Execute},
			why:  map[string]Reason{"data": Needed},
		},
		{
			name: "opens replayed, the rest executed", files: files, prefix: "lib",
			want: map[string]Action{"lib": Replay, "libread": Execute, "libmap": Execute, "libclose": Execute},
		},
		{
			name: "the conf's reads executed, its content excluded", files: files, prefix: "conf",
			want:    map[string]Action{"lib": Replay, "conf": ExecuteThenOverwrite, "confread": Execute},
			why:     map[string]Reason{"conf": NotServed},
			noteHas: map[string]string{"conf": "content excluded from the trace (record it without an --exclude-content"},
		},
		{
			name: "a directory is not served", files: files, prefix: "dir",
			want: map[string]Action{"dir": ExecuteThenOverwrite, "dirstat": Execute},
			why:  map[string]Reason{"dir": Needed},
		},
		{
			name: "a trace without file objects", files: nil,
			want: map[string]Action{"lib": ExecuteThenOverwrite, "libmap": Execute},
			why:  map[string]Reason{"lib": Needed},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := newTB(t)
			servedTrace(b)
			g, err := BuildServed(b.Table, &trace.Header{Arch: "amd64"}, b.Events, tc.files)
			if err != nil {
				t.Fatal(err)
			}
			src, err := BuildWith(b.Table, &trace.Header{Arch: "amd64"}, b.Events, BuildOptions{Files: tc.files, Source: callsOf(b.Events)})
			if err != nil {
				t.Fatal(err)
			}
			if diff := sameFromSource(g, src); diff != "" {
				t.Errorf("the graph built with a call source: %s", diff)
			}
			last := b.Seq()
			if tc.prefix != "" {
				last = b.l(tc.prefix)
			}
			p := g.Closure(func(seq uint64) bool { return seq <= last })
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
			for l, want := range tc.noteHas {
				if got := p.Note(b.l(l)); !strings.Contains(got, want) {
					t.Errorf("%s: note %q, want it to say %q", l, got, want)
				}
			}
			var notServed []uint64
			for l := range tc.noteHas {
				notServed = append(notServed, b.l(l))
			}
			if got := p.NotServed(); len(got) != len(notServed) {
				t.Errorf("NotServed = %v, want %v", got, notServed)
			}
			// Every executed call's dependencies run, but the served
			// opens its content-only uses leave replayed.
			for seq, a := range p.Actions() {
				if a == Replay {
					continue
				}
				for _, e := range g.Deps(seq) {
					if p.Action(e.To) != Replay {
						continue
					}
					j, _ := g.pos(e.To)
					if ok, _ := g.serves(j, e.Resource); !ok || !e.ContentOnly {
						t.Errorf("#%d runs (%s) but #%d, which it depends on (%s), is replayed and serves nothing", seq, a, e.To, e.Why)
					}
				}
			}
		})
	}
}

// TestContentOnlyEdges: the edge of a read, an mmap or an fstat to the
// open of its fd is content-only, the one of F_SETFL (which changes the
// description) is not, nor is a read's edge when another of the call's
// uses is not.
func TestContentOnlyEdges(t *testing.T) {
	b := newTB(t)
	servedTrace(b)
	b.openat("out", 1, "/tmp/out", "/tmp/out", unix.O_WRONLY|unix.O_CREAT, 6)
	b.do("sendfile", 1, "sendfile", 10, []uint64{6, 4, 0, 10})
	b.do("emptyat", 1, "newfstatat", 0, []uint64{4, 0x3000, 0x4000, unix.AT_EMPTY_PATH}, named("", "/var/lib/app/data"))
	b.do("belowat", 1, "newfstatat", 0, []uint64{5, 0x3000, 0x4000, 0}, named("x.conf", "/etc/app.d/x.conf"))
	b.do("sharedmap", 1, "mmap", 0x7200_0000, []uint64{0, 4096, unix.PROT_READ | unix.PROT_WRITE, unix.MAP_SHARED, 4, 0})
	b.do("privmap", 1, "mmap", 0x7300_0000, []uint64{0, 4096, unix.PROT_READ | unix.PROT_WRITE, unix.MAP_PRIVATE, 4, 0})
	g := b.graph()
	for _, c := range []struct {
		from, to string
		want     bool
	}{
		{"libread", "lib", true}, {"libmap", "lib", true}, {"libstat", "lib", true}, {"libclose", "lib", true},
		{"setfl", "data", false}, {"sendfile", "out", false}, {"sendfile", "data", true},
		{"emptyat", "data", true}, {"belowat", "dir", false},
		{"sharedmap", "data", false}, {"privmap", "data", true},
	} {
		e, ok := edge(g, b.l(c.from), b.l(c.to))
		if !ok {
			t.Errorf("no edge %s -> %s", c.from, c.to)
			continue
		}
		if e.ContentOnly != c.want {
			t.Errorf("%s -> %s (%s): ContentOnly %v, want %v", c.from, c.to, e.Why, e.ContentOnly, c.want)
		}
	}
}
