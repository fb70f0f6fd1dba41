package align

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/trace"
)

// dirents64 builds getdents64 records.
func dirents64(ino uint64, names ...string) string {
	var b []byte
	for i, n := range names {
		reclen := (19 + len(n) + 1 + 7) &^ 7
		rec := make([]byte, reclen)
		le.PutUint64(rec, ino+uint64(i))
		le.PutUint64(rec[8:], uint64(i+1)*0x1234567)
		le.PutUint16(rec[16:], uint16(reclen))
		rec[18] = 8 // DT_REG
		copy(rec[19:], n)
		b = append(b, rec...)
	}
	return string(b)
}

func sockaddrIn(ip [4]byte, port uint16) string {
	b := make([]byte, 16)
	le.PutUint16(b, 2)
	binary.BigEndian.PutUint16(b[2:], port)
	copy(b[4:], ip[:])
	return string(b)
}

func TestCompare(t *testing.T) {
	tab := tracetest.Amd64(t)
	type callFn func(r *run, bad bool) *trace.Call
	cases := []struct {
		name   string
		call   callFn
		differ bool // with default options
		all    bool // with AllFields
		fields []string
		check  func(t *testing.T, d *CallDiff)
	}{
		{"stat inode and time", func(r *run, bad bool) *trace.Call {
			ino := map[bool]uint64{false: 1, true: 2}[bad]
			return tracetest.Out(r.call(1, "stat", 0, "/etc/x"), 1, statBuf(0o100644, 10, ino, int64(ino)))
		}, false, true, nil, nil},
		{"stat size and mode", func(r *run, bad bool) *trace.Call {
			if bad {
				return tracetest.Out(r.call(1, "stat", 0, "/etc/x"), 1, statBuf(0o100600, 0, 1, 1))
			}
			return tracetest.Out(r.call(1, "stat", 0, "/etc/x"), 1, statBuf(0o100644, 1523, 1, 1))
		}, true, true, []string{"st_mode S_IFREG|0644 S_IFREG|0600", "st_size 1523 0"}, nil},
		{"directory order and inodes", func(r *run, bad bool) *trace.Call {
			if bad {
				return tracetest.Out(r.call(1, "getdents64", 48, "/etc/d", 3), 1, dirents64(900, "b", "a"))
			}
			return tracetest.Out(r.call(1, "getdents64", 48, "/etc/d", 3), 1, dirents64(100, "a", "b"))
		}, false, true, nil, nil},
		{"directory entries", func(r *run, bad bool) *trace.Call {
			if bad {
				return tracetest.Out(r.call(1, "getdents64", 48, "/etc/d", 3), 1, dirents64(1, "a", "c"))
			}
			return tracetest.Out(r.call(1, "getdents64", 48, "/etc/d", 3), 1, dirents64(1, "a", "b"))
		}, true, true, nil, func(t *testing.T, d *CallDiff) {
			if dd := d.Data[0]; !slices.Equal(dd.OnlyA, []string{"b"}) || !slices.Equal(dd.OnlyB, []string{"c"}) {
				t.Errorf("entries only in A %q, only in B %q", dd.OnlyA, dd.OnlyB)
			}
		}},
		{"accepted peer port", func(r *run, bad bool) *trace.Call {
			port := map[bool]uint16{false: 40000, true: 50000}[bad]
			c := r.call(1, "accept", 4, "socket:[1]", 3)
			c.Mem = append(c.Mem, trace.Mem{Arg: 1, Dir: trace.Out, Len: 16, Data: []byte(sockaddrIn([4]byte{127, 0, 0, 1}, port))})
			return c
		}, false, true, nil, nil},
		{"connect address", func(r *run, bad bool) *trace.Call {
			ip := map[bool][4]byte{false: {10, 0, 0, 1}, true: {10, 0, 0, 2}}[bad]
			return tracetest.In(r.call(1, "connect", 0, "socket:[1]", 3), 1, sockaddrIn(ip, 80))
		}, true, true, nil, func(t *testing.T, d *CallDiff) {
			if len(d.Sent) != 1 || len(d.Data) != 0 || d.Ret {
				t.Fatalf("diff %+v; want the address sent", d)
			}
			if f := d.Sent[0].Fields; len(f) != 1 || f[0].Name != "sin_addr" || f[0].A != "10.0.0.1" || f[0].B != "10.0.0.2" {
				t.Errorf("fields %+v", f)
			}
		}},
		{"proc self stat", func(r *run, bad bool) *trace.Call {
			data := map[bool]string{false: "101 (prog) R 1", true: "5001 (prog) R 1"}[bad]
			return tracetest.Out(r.call(1, "read", int64(len(data)), "/proc/"+itoa(int64(r.kid(1)))+"/stat", 3), 1, data)
		}, true, true, nil, nil}, // the lengths differ: the return value says so
		{"proc self stat same length", func(r *run, bad bool) *trace.Call {
			data := map[bool]string{false: "1011 (prog) R 1", true: "5001 (prog) R 1"}[bad]
			return tracetest.Out(r.call(1, "read", int64(len(data)), "/proc/self/stat", 3), 1, data)
		}, false, true, nil, nil},
		{"getrandom", func(r *run, bad bool) *trace.Call {
			return tracetest.Out(r.call(1, "getrandom", 4, "", 0, 4), 0, map[bool]string{false: "abcd", true: "wxyz"}[bad])
		}, false, true, nil, nil},
		{"readlink of a pipe", func(r *run, bad bool) *trace.Call {
			data := map[bool]string{false: "pipe:[123]", true: "pipe:[98765]"}[bad]
			return tracetest.Out(r.call(1, "readlink", int64(len(data)), "/proc/self/fd/0"), 1, data)
		}, true, true, nil, nil}, // returns the length, which differs
		{"time", func(r *run, bad bool) *trace.Call {
			return r.call(1, "time", map[bool]int64{false: 1700000000, true: 1700000099}[bad], "")
		}, false, true, nil, nil},
		{"uid", func(r *run, bad bool) *trace.Call {
			return r.call(1, "getuid", map[bool]int64{false: 0, true: 1000}[bad], "")
		}, true, true, nil, nil},
		{"errno", func(r *run, bad bool) *trace.Call {
			return r.call(1, "openat", map[bool]int64{false: -13, true: -2}[bad], "/x")
		}, true, true, nil, nil},
		{"mmap address", func(r *run, bad bool) *trace.Call {
			return r.call(1, "mmap", map[bool]int64{false: 0x7f00, true: 0x7e00}[bad], "")
		}, false, true, nil, nil},
		{"never returned on one side", func(r *run, bad bool) *trace.Call {
			c := r.call(1, "read", 0, "pipe:[1]")
			c.NoReturn = bad
			return c
		}, true, true, nil, nil},
		{"excluded contents", func(r *run, bad bool) *trace.Call {
			c := r.call(1, "read", 5, "/secret", 3)
			c.Mem = append(c.Mem, trace.Mem{Arg: 1, Dir: trace.Out, Len: 5, Flag: trace.Excluded})
			return c
		}, false, false, nil, nil},
		{"child exit status", func(r *run, bad bool) *trace.Call {
			st := map[bool]string{false: "\x00\x00\x00\x00", true: "\x00\x01\x00\x00"}[bad]
			return tracetest.Out(r.call(1, "wait4", 7, "", uint64(1<<64-1)), 1, st)
		}, true, true, []string{" exited with 0 exited with 1"}, nil},
		{"execve environment", func(r *run, bad bool) *trace.Call {
			c := r.call(1, "execve", 0, "/bin/x")
			c.Mem = append(c.Mem, trace.Mem{Arg: 2, Part: trace.PartStrings, Dir: trace.In, Data: []byte(map[bool]string{false: "A=1\x00", true: "A=2\x00"}[bad])})
			return c
		}, false, true, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ga, gb := newRun(t, 100), newRun(t, 5000)
			x, y := tc.call(ga, false), tc.call(gb, true)
			a, b := NewTree(ga.events), NewTree(gb.events)
			ka, kb := NewKeyer(tab, "", ""), NewKeyer(tab, "", "")
			m := Match(a, b, ka, kb)
			d := NewComparer(tab, "amd64", a, b, m, ka, kb, Options{}).Compare(x, y)
			if (d != nil) != tc.differ {
				t.Errorf("differs %v (%+v); want %v", d != nil, d, tc.differ)
			}
			all := NewComparer(tab, "amd64", a, b, m, ka, kb, Options{AllFields: true}).Compare(x, y)
			if (all != nil) != tc.all {
				t.Errorf("with AllFields differs %v (%+v); want %v", all != nil, all, tc.all)
			}
			if tc.fields != nil {
				var got []string
				for _, f := range d.Data[0].Fields {
					got = append(got, f.Name+" "+f.A+" "+f.B)
				}
				if !slices.Equal(got, tc.fields) {
					t.Errorf("fields %q; want %q", got, tc.fields)
				}
			}
			if tc.check != nil && d != nil {
				tc.check(t, d)
			}
		})
	}
}

func TestKeyPath(t *testing.T) {
	k := NewKeyer(tracetest.Amd64(t), "/home/b/proj", "/builds/proj")
	cases := []struct{ in, want string }{
		{"pipe:[1234]", "pipe:[]"},
		{"socket:[99]", "socket:[]"},
		{"anon_inode:[eventfd]", "anon_inode:[eventfd]"},
		{"/proc/4242/task/4243/comm", "/proc/<pid>/task/<tid>/comm"},
		{"/proc/self/fd/3", "/proc/self/fd/3"},
		{"/home/b/proj/src/main.c", "/builds/proj/src/main.c"},
		{"/home/b/project", "/home/b/project"},
		{"/etc/hosts", "/etc/hosts"},
	}
	for _, tc := range cases {
		if got := k.Path(tc.in); got != tc.want {
			t.Errorf("Path(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

// TestKeyPathNested: when one working directory holds the other (recorded
// in /tmp, run from /tmp/m2), paths are keyed as they are: both runs named
// /tmp/m2/app.conf so.
func TestKeyPathNested(t *testing.T) {
	tab := tracetest.Amd64(t)
	for _, dirs := range [][2]string{{"/tmp/m2", "/tmp"}, {"/tmp", "/tmp/m2"}, {"/tmp/m2", "/"}} {
		k := NewKeyer(tab, dirs[0], dirs[1])
		for _, p := range []string{"/tmp/m2/app.conf", "/tmp/app.conf", "/etc/hosts"} {
			if got := k.Path(p); got != p {
				t.Errorf("cwd %s as %s: Path(%q) = %q; want it unchanged", dirs[0], dirs[1], p, got)
			}
		}
	}
}

func TestAssign(t *testing.T) {
	fp := func(paths ...string) Fingerprint {
		var f Fingerprint
		for _, p := range paths {
			f.Keys = append(f.Keys, Key{Nr: 257, Res: p})
		}
		return f
	}
	cases := []struct {
		name   string
		as, bs []Candidate
		want   [][2]int
	}{
		{"by order", []Candidate{{Index: 1}, {Index: 2}}, []Candidate{{Index: 1}, {Index: 2}}, [][2]int{{0, 0}, {1, 1}}},
		{"by what they do", []Candidate{{Index: 1, Print: fp("/a")}, {Index: 2, Print: fp("/b")}},
			[]Candidate{{Index: 1, Print: fp("/b")}, {Index: 2, Print: fp("/a")}}, [][2]int{{0, 1}, {1, 0}}},
		{"by image", []Candidate{{Index: 1, Execs: []Exec{{"/usr/bin/gcc", []string{"gcc"}}}}, {Index: 2, Execs: []Exec{{"/usr/bin/ld", []string{"ld"}}}}},
			[]Candidate{{Index: 1, Execs: []Exec{{"/usr/local/bin/ld", []string{"ld"}}}}}, [][2]int{{1, 0}}},
		{"by name", []Candidate{{Index: 2, Print: Fingerprint{Name: "io"}}, {Index: 3, Print: Fingerprint{Name: "player"}}},
			[]Candidate{{Index: 2, Print: Fingerprint{Name: "player"}}, {Index: 3, Print: Fingerprint{Name: "io"}}}, [][2]int{{0, 1}, {1, 0}}},
		{"nothing in common", []Candidate{{Index: 1, Print: fp("/a")}}, []Candidate{{Index: 2, Print: fp("/b")}}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Assign(tc.as, tc.bs); !slices.Equal(got, tc.want) {
				t.Errorf("got %v; want %v", got, tc.want)
			}
		})
	}
}
