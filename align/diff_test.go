package align

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/trace"
)

const (
	enoent  = -2
	atFDCWD = uint64(1<<64 - 100)
)

// prologue is what every synthetic program does first: exec, load libc.
func prologue(r *run, mmapAddr int64) {
	r.exec(1, "/usr/bin/prog", "prog", "x")
	r.call(1, "execve", 0, "/usr/bin/prog")
	r.call(1, "brk", mmapAddr+0x1000, "")
	r.call(1, "openat", 3, "/lib/libc.so.6", atFDCWD)
	tracetest.Out(r.call(1, "read", 4, "/lib/libc.so.6", 3), 1, "\x7fELF")
	r.call(1, "mmap", mmapAddr, "/lib/libc.so.6")
	r.call(1, "close", 0, "/lib/libc.so.6", 3)
}

func TestDiff(t *testing.T) {
	tab := tracetest.Amd64(t)
	cases := []struct {
		name string
		prog func(r *run, bad bool)
		want summary
		// differ lists the differing pairs as "name: A ret / B ret".
		differ []string
		// sided lists the one-sided calls in order ("-read" in A, "+poll" in B).
		sided []string
		check func(t *testing.T, r *Result)
	}{
		{
			name: "identical",
			prog: func(r *run, bad bool) {
				prologue(r, 0x7f0000000000)
				r.call(1, "write", 3, "/dev/pts/0", 1)
				r.call(1, "exit_group", 0, "").NoReturn = true
				r.exit(1, 0)
			},
			want: summary{compared: 8},
		},
		{
			name: "openat ENOENT",
			prog: func(r *run, bad bool) {
				prologue(r, 0x7f0000000000)
				if !bad {
					r.call(1, "openat", 3, "/etc/ssl/openssl.cnf", atFDCWD)
					tracetest.Out(r.call(1, "read", 6, "/etc/ssl/openssl.cnf", 3), 1, "a = b\n")
					r.call(1, "close", 0, "/etc/ssl/openssl.cnf", 3)
					r.call(1, "exit_group", 0, "").NoReturn = true
					r.exit(1, 0)
					return
				}
				r.call(1, "openat", enoent, "/etc/ssl/openssl.cnf", atFDCWD)
				tracetest.In(r.call(1, "write", 9, "/dev/pts/0", 2), 1, "no conf!\n")
				r.call(1, "exit_group", 0, "").NoReturn = true
				r.exit(1, 1)
			},
			want:   summary{compared: 8, differ: 1, onlyA: 2, onlyB: 1, exits: 1},
			differ: []string{"openat: 3 / -2"},
			sided:  []string{"-read", "-close", "+write"},
		},
		{
			name: "read data differs",
			prog: func(r *run, bad bool) {
				prologue(r, 0x7f0000000000)
				r.call(1, "openat", 3, "/etc/app.conf", atFDCWD)
				data := "a=1\nb=2\nc=3\n"
				if bad {
					data = "a=1\nb=9\nc=3\n"
				}
				tracetest.Out(r.call(1, "read", int64(len(data)), "/etc/app.conf", 3), 1, data)
				r.call(1, "close", 0, "/etc/app.conf", 3)
			},
			want:   summary{compared: 9, differ: 1},
			differ: []string{"read: 12 / 12"},
			check: func(t *testing.T, r *Result) {
				d := differing(r)[0].d
				if d.Ret || len(d.Data) != 1 || d.Data[0].Offset != 6 {
					t.Fatalf("diff %+v; want the data of read, first difference at offset 6", d)
				}
				got := TextDiff(d.Data[0].A, d.Data[0].B, 1, 10)
				want := []string{"@@ -1,3 +1,3 @@", " a=1", "-b=2", "+b=9", " c=3"}
				if !slices.Equal(got, want) {
					t.Errorf("text diff %q; want %q", got, want)
				}
			},
		},
		{
			name: "pids addresses fds inodes and times only",
			prog: func(r *run, bad bool) {
				addr, fd, ino, mtime := int64(0x7f0000000000), int64(3), uint64(1000), int64(1700000000)
				if bad {
					addr, fd, ino, mtime = 0x7e0000000000, 7, 99999, 1800000000
				}
				prologue(r, addr)
				r.call(1, "getpid", int64(r.kid(1)), "")
				r.call(1, "getppid", 4242+int64(fd), "") // a parent outside the trace
				r.call(1, "openat", fd, "/etc/hosts", atFDCWD)
				tracetest.Out(r.call(1, "newfstatat", 0, "/etc/hosts", uint64(fd)), 2, statBuf(0o100644, 20, ino, mtime))
				tracetest.Out(r.call(1, "read", 20, "/etc/hosts", uint64(fd)), 1, "127.0.0.1 localhost\n")
				r.call(1, "close", 0, "/etc/hosts", uint64(fd))
				tracetest.Out(r.call(1, "clock_gettime", 0, "", 1), 1, strings.Repeat(string(rune('a'+fd)), 16))
				tracetest.Out(r.call(1, "pipe2", 0, ""), 0, string([]byte{byte(fd + 1), 0, 0, 0, byte(fd + 2), 0, 0, 0}))
				r.call(1, "clone", int64(r.kid(2)), "")
				r.spawn(2, 2, 1, 1)
				r.call(2, "exit_group", 0, "").NoReturn = true
				r.exit(2, 0)
				r.call(1, "wait4", int64(r.kid(2)), "")
			},
			want: summary{compared: 17},
		},
		{
			name: "polling loop 3 vs 5",
			prog: func(r *run, bad bool) {
				prologue(r, 0x7f0000000000)
				n := 3
				if bad {
					n = 5
				}
				for i := 1; i <= n; i++ {
					ready := int64(0)
					if i == n {
						ready = 1
					}
					r.call(1, "poll", ready, "")
					if i < n {
						r.call(1, "nanosleep", 0, "")
					}
				}
				tracetest.Out(r.call(1, "read", 2, "pipe:[77]", 0), 1, "ok")
				r.call(1, "exit_group", 0, "").NoReturn = true
			},
			want:  summary{compared: 13, onlyB: 4},
			sided: []string{"+poll", "+nanosleep", "+poll", "+nanosleep"},
		},
		{
			name: "workers created in swapped order",
			prog: func(r *run, bad bool) {
				prologue(r, 0x7f0000000000)
				// In the bad run the log worker is seen first, so it gets
				// logical thread 2, although the first clone made the db worker.
				db, log := uint32(2), uint32(3)
				if bad {
					db, log = 3, 2
				}
				r.call(1, "clone", int64(r.kid(db)), "")
				r.call(1, "clone", int64(r.kid(log)), "")
				r.thread(2, 1, 2)
				r.thread(3, 1, 3)
				for th, p := range map[uint32]string{db: "/var/lib/db", log: "/var/log/app.log"} {
					r.call(th, "openat", 5, p, atFDCWD)
					r.call(th, "fsync", 0, p, 5)
					r.call(th, "close", 0, p, 5)
				}
			},
			want: summary{compared: 14},
			check: func(t *testing.T, r *Result) {
				for _, td := range r.Threads {
					if td.A == 1 {
						continue
					}
					if pa, pb := td.CallsA[0].Path, td.CallsB[0].Path; pa != pb {
						t.Errorf("thread %d matched with %d: first paths %s and %s", td.A, td.B, pa, pb)
					}
				}
			},
		},
		{
			name: "children execing in swapped order",
			prog: func(r *run, bad bool) {
				prologue(r, 0x7f0000000000)
				tools := []string{"/usr/bin/gcc", "/usr/bin/ld"}
				if bad {
					tools[0], tools[1] = tools[1], tools[0]
				}
				for i, tool := range tools {
					id := uint32(2 + i)
					r.call(1, "clone", int64(r.kid(id)), "")
					r.spawn(id, id, 1, uint32(i+1))
					r.exec(id, tool, tool)
					r.call(id, "execve", 0, tool)
					r.call(id, "openat", 3, tool+".conf", atFDCWD)
					r.call(id, "exit_group", 0, "").NoReturn = true
					r.exit(id, i)
				}
			},
			// The clones return the pids of children matched crosswise, so
			// their results differ; everything else agrees, exits included.
			want:   summary{compared: 14, differ: 2, exits: 2},
			differ: []string{"clone: 102 / 5002", "clone: 103 / 5003"},
		},
		{
			name: "start events",
			prog: func(r *run, bad bool) {
				lang := "C.UTF-8"
				if bad {
					lang = "POSIX"
					r.start = append(r.start, trace.StartEvent{Kind: trace.StartEnv, Name: "EXTRA", Value: "1"})
				}
				r.start = append(r.start,
					trace.StartEvent{Kind: trace.StartEnv, Name: "LANG", Value: lang},
					trace.StartEvent{Kind: trace.StartEnv, Name: "HOME", Value: "/root"},
					trace.StartEvent{Kind: trace.StartAuxv, Name: "AT_RANDOM", Value: map[bool]string{false: "0x7ffe", true: "0x7ffd"}[bad]})
				prologue(r, 0x7f0000000000)
			},
			want: summary{compared: 6, start: 2},
			check: func(t *testing.T, r *Result) {
				if s := r.Start[0]; s.Name != "LANG" || s.A.Value != "C.UTF-8" || s.B.Value != "POSIX" {
					t.Errorf("first start diff %+v %+v %+v", s, s.A, s.B)
				}
				if s := r.Start[1]; s.Name != "EXTRA" || s.A != nil || s.B.Value != "1" {
					t.Errorf("second start diff %+v", s)
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			good, bad := newRun(t, 100), newRun(t, 5000)
			tc.prog(good, false)
			tc.prog(bad, true)
			r := Diff(tab, good.Run(), bad.Run(), Options{})
			if got := sum(r); got != tc.want {
				t.Errorf("summary %+v; want %+v", got, tc.want)
			}
			var differ []string
			for _, p := range differing(r) {
				differ = append(differ, tab.ByNr(int(p.a.Nr)).Name+": "+itoa(p.a.Ret)+" / "+itoa(p.b.Ret))
			}
			if !slices.Equal(differ, tc.differ) {
				t.Errorf("differing pairs %q; want %q", differ, tc.differ)
			}
			if got := oneSided(tab, r); !slices.Equal(got, tc.sided) {
				t.Errorf("one-sided calls %q; want %q", got, tc.sided)
			}
			if r.Differs() != (tc.want != summary{compared: tc.want.compared}) {
				t.Errorf("Differs() = %v", r.Differs())
			}
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
