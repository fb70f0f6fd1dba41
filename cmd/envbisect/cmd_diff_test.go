package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/record"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// diffRun builds a synthetic amd64 trace for the diff tests: process 1,
// main thread 1, kernel ids base+logical number.
type diffRun struct {
	t     *testing.T
	tab   *systable.Table
	base  int32
	arch  string
	cut   bool // write no end frame
	evs   []trace.Event
	seq   uint64
	tseq  map[uint32]uint64
	proc  map[uint32]uint32
	start []trace.StartEvent
}

func newDiffRun(t *testing.T, base int32) *diffRun {
	r := &diffRun{t: t, tab: tracetest.Amd64(t), base: base, arch: "amd64", tseq: map[uint32]uint64{}, proc: map[uint32]uint32{1: 1}}
	r.evs = append(r.evs, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1, PID: base + 1, TID: base + 1, Index: 1}},
		trace.Event{Proc: &trace.ProcEvent{Kind: trace.Exec, Proc: 1, Thread: 1, PID: base + 1, TID: base + 1, Exe: "/usr/bin/prog", Argv: []string{"prog"}}})
	return r
}

func (r *diffRun) kid(id uint32) int32 { return r.base + int32(id) }

// call appends a call; a path is also put into the memory of the call's
// first path argument, so that it prints.
func (r *diffRun) call(th uint32, name string, ret int64, path string, args ...uint64) *trace.Call {
	row, ok := r.tab.ByName(name)
	if !ok {
		r.t.Fatalf("no syscall %s", name)
	}
	r.seq++
	r.tseq[th]++
	c := &trace.Call{Seq: r.seq, Proc: r.proc[th], Thread: th, TSeq: r.tseq[th], PID: r.kid(r.proc[th]), TID: r.kid(th),
		Nr: uint32(row.Nr), Ret: ret, Path: path}
	copy(c.Args[:], args)
	for i, a := range row.Args {
		if a.Kind == systable.Path {
			c.Mem = append(c.Mem, trace.Mem{Arg: uint8(i), Dir: trace.In, Len: uint64(len(path) + 1), Data: []byte(path + "\x00")})
			break
		}
	}
	r.evs = append(r.evs, trace.Event{Call: c})
	return c
}

func (r *diffRun) thread(th, parent, index uint32) {
	r.proc[th] = r.proc[parent]
	r.evs = append(r.evs, trace.Event{Proc: &trace.ProcEvent{Kind: trace.SpawnThread, Seq: r.seq, Proc: r.proc[th], Thread: th,
		PID: r.kid(1), TID: r.kid(th), Parent: r.proc[th], ParentThread: parent, Index: index}})
}

func (r *diffRun) exit(status int) {
	r.evs = append(r.evs, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Exit, Seq: r.seq, Proc: 1, Thread: 1, PID: r.kid(1), Status: status}})
}

// file writes the trace and returns its path.
func (r *diffRun) file(name string) string {
	r.t.Helper()
	path := filepath.Join(r.t.TempDir(), name)
	h := &trace.Header{Tool: "test", Arch: r.arch, Kernel: "6.1.0", Host: "box", Command: []string{"prog"}, Cwd: "/src",
		Started: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Backend: trace.BackendPtraceSeccomp}
	w, err := tracefile.Create(path, h)
	if err != nil {
		r.t.Fatal(err)
	}
	if err := w.WriteStart(r.start); err != nil {
		r.t.Fatal(err)
	}
	if err := w.WriteEvents(r.evs); err != nil {
		r.t.Fatal(err)
	}
	if r.cut {
		err = w.Abort()
	} else {
		err = w.Close(&trace.End{Finished: h.Started.Add(time.Second), Calls: r.seq, Procs: 1, Threads: 1})
	}
	if err != nil {
		r.t.Fatal(err)
	}
	return path
}

const diffAtFDCWD = uint64(1<<64 - 100)

// diffPrologue loads a library: the same in every run but for addresses
// and pids.
func diffPrologue(r *diffRun) {
	addr := int64(0x7f0000000000) - int64(r.base)<<12
	r.call(1, "brk", addr, "")
	r.call(1, "openat", 3, "/lib/libc.so.6", diffAtFDCWD)
	tracetest.Out(r.call(1, "read", 4, "/lib/libc.so.6", 3, 0, 832), 1, "\x7fELF")
	r.call(1, "mmap", addr+0x10000, "/lib/libc.so.6", 0, 8192, 1, 2, 3)
	r.call(1, "close", 0, "/lib/libc.so.6", 3)
	r.call(1, "getpid", int64(r.kid(1)), "")
}

func TestDiffCommand(t *testing.T) {
	cases := []struct {
		name     string
		prog     func(r *diffRun, bad bool)
		args     []string
		wantCode int
		want     string   // the whole output, when set
		contains []string // lines the output must have
		absent   []string // prefixes no line may have
	}{
		{
			name: "identical",
			prog: func(r *diffRun, bad bool) {
				diffPrologue(r)
				r.call(1, "exit_group", 0, "").NoReturn = true
				r.exit(0)
			},
			wantCode: 0,
			want: `--- GOOD good.envb: prog (host box, Linux 6.1.0, 2025-01-02T03:04:05Z)
+++ BAD  bad.envb: prog (host box, Linux 6.1.0, 2025-01-02T03:04:05Z)
# 7 calls compared, 0 differ, 0 only in GOOD, 0 only in BAD; 1 thread matched; 0 start events differ
`,
		},
		{
			name: "openat ENOENT",
			prog: func(r *diffRun, bad bool) {
				diffPrologue(r)
				if !bad {
					r.call(1, "openat", 3, "/etc/ssl/openssl.cnf", diffAtFDCWD)
					tracetest.Out(r.call(1, "read", 20, "/etc/ssl/openssl.cnf", 3, 0, 4096), 1, "openssl_conf = conf\n")
					r.call(1, "close", 0, "/etc/ssl/openssl.cnf", 3)
					r.call(1, "exit_group", 0, "").NoReturn = true
					r.exit(0)
					return
				}
				r.call(1, "openat", -2, "/etc/ssl/openssl.cnf", diffAtFDCWD)
				tracetest.In(r.call(1, "write", 9, "/dev/pts/0", 2, 0, 9), 1, "no conf!\n")
				r.call(1, "exit_group", 1, "", 1).NoReturn = true
				r.exit(1)
			},
			wantCode: 1,
			want: `--- GOOD good.envb: prog (host box, Linux 6.1.0, 2025-01-02T03:04:05Z)
+++ BAD  bad.envb: prog (host box, Linux 6.1.0, 2025-01-02T03:04:05Z)
@@ [1] /usr/bin/prog @@
- #7 [1] openat(AT_FDCWD, "/etc/ssl/openssl.cnf", O_RDONLY) = 3
+ #7 [1] openat(AT_FDCWD, "/etc/ssl/openssl.cnf", O_RDONLY) = -1 ENOENT (No such file or directory)
< #8 [1] read(3, "openssl_conf = conf\n", 4096) = 20
< #9 [1] close(3) = 0
> #8 [1] write(2, "no conf!\n", 9) = 9
- [1] +++ exited with 0 +++
+ [1] +++ exited with 1 +++
# 8 calls compared, 1 differs, 2 only in GOOD, 1 only in BAD; 1 thread matched; 1 exit status differs; 0 start events differ
`,
		},
		{
			name: "read data differs",
			prog: func(r *diffRun, bad bool) {
				diffPrologue(r)
				r.call(1, "openat", 3, "/etc/app.conf", diffAtFDCWD)
				data := "name=app\nport=80\nuser=www\n"
				if bad {
					data = "name=app\nport=8080\nuser=www\n"
				}
				tracetest.Out(r.call(1, "read", int64(len(data)), "/etc/app.conf", 3, 0, 4096), 1, data)
			},
			wantCode: 1,
			contains: []string{
				`- #8 [1] read(3, "name=app\nport=80\nuser=www\n", 4096) = 26`,
				`+ #8 [1] read(3, "name=app\nport=8080\nuser=www\n", 4096) = 28`,
				`    buf: 26 bytes -> 28 bytes, first difference at offset 16`,
				`    @@ -1,3 +1,3 @@`, `     name=app`, `    -port=80`, `    +port=8080`, `     user=www`,
				`# 8 calls compared, 1 differs, 0 only in GOOD, 0 only in BAD; 1 thread matched; 0 start events differ`,
			},
		},
		{
			name: "pids and fd numbers only",
			prog: func(r *diffRun, bad bool) {
				diffPrologue(r)
				fd := uint64(4)
				if bad {
					fd = 9
				}
				r.call(1, "openat", int64(fd), "/etc/hosts", diffAtFDCWD)
				tracetest.Out(r.call(1, "read", 5, "/etc/hosts", fd, 0, 4096), 1, "hosts")
				r.call(1, "close", 0, "/etc/hosts", fd)
				r.call(1, "gettid", int64(r.kid(1)), "")
			},
			wantCode: 0,
			absent:   []string{"- ", "+ ", "< ", "> "},
		},
		{
			name: "polling loop 3 vs 5",
			prog: func(r *diffRun, bad bool) {
				diffPrologue(r)
				n := 3
				if bad {
					n = 5
				}
				for i := 1; i <= n; i++ {
					r.call(1, "poll", map[bool]int64{false: 0, true: 1}[i == n], "", 0, 1, 100)
					if i < n {
						r.call(1, "nanosleep", 0, "")
					}
				}
				tracetest.Out(r.call(1, "read", 2, "pipe:[77]", 0, 0, 2), 1, "ok")
			},
			wantCode: 1,
			contains: []string{
				"> #11 [1] poll(NULL, 1, 100) = 0",
				"> #12 [1] nanosleep(NULL, NULL) = 0",
				"> #13 [1] poll(NULL, 1, 100) = 0",
				"> #14 [1] nanosleep(NULL, NULL) = 0",
				"# 12 calls compared, 0 differ, 0 only in GOOD, 4 only in BAD; 1 thread matched; 0 start events differ",
			},
			absent: []string{"- ", "+ ", "< "},
		},
		{
			name: "workers created in swapped order",
			prog: func(r *diffRun, bad bool) {
				diffPrologue(r)
				db, log := uint32(2), uint32(3)
				if bad {
					db, log = 3, 2
				}
				r.call(1, "clone", int64(r.kid(db)), "", 0x3d0f00)
				r.call(1, "clone", int64(r.kid(log)), "", 0x3d0f00)
				r.thread(2, 1, 2)
				r.thread(3, 1, 3)
				for _, w := range []struct {
					th   uint32
					path string
				}{{db, "/var/lib/db"}, {log, "/var/log/app.log"}} {
					r.call(w.th, "openat", 5, w.path, diffAtFDCWD)
					r.call(w.th, "fsync", 0, w.path, 5)
				}
			},
			wantCode: 0,
			absent:   []string{"- ", "+ ", "< ", "> "},
		},
		{
			name: "environment variable",
			prog: func(r *diffRun, bad bool) {
				lang := map[bool]string{false: "C.UTF-8", true: "POSIX"}[bad]
				r.start = []trace.StartEvent{{Kind: trace.StartEnv, Name: "HOME", Value: "/root"}, {Kind: trace.StartEnv, Name: "LANG", Value: lang},
					{Kind: trace.StartRlimit, Name: "RLIMIT_NOFILE", Value: "1024 4096"}}
				diffPrologue(r)
			},
			wantCode: 1,
			want: `--- GOOD good.envb: prog (host box, Linux 6.1.0, 2025-01-02T03:04:05Z)
+++ BAD  bad.envb: prog (host box, Linux 6.1.0, 2025-01-02T03:04:05Z)
@@ start events @@
- env LANG=C.UTF-8
+ env LANG=POSIX
# 6 calls compared, 0 differ, 0 only in GOOD, 0 only in BAD; 1 thread matched; 1 start event differs
`,
		},
		{
			name: "context",
			prog: func(r *diffRun, bad bool) {
				diffPrologue(r)
				r.call(1, "getuid", map[bool]int64{false: 0, true: 1000}[bad], "")
				r.call(1, "getgid", 0, "")
			},
			args:     []string{"--context", "1"},
			wantCode: 1,
			contains: []string{"  #6 [1] getpid() = 101", "- #7 [1] getuid() = 0", "+ #7 [1] getuid() = 1000", "  #8 [1] getgid() = 0"},
			absent:   []string{"  #5 "},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			good, bad := newDiffRun(t, 100), newDiffRun(t, 7000)
			tc.prog(good, false)
			tc.prog(bad, true)
			dir := t.TempDir()
			gp, bp := filepath.Join(dir, "good.envb"), filepath.Join(dir, "bad.envb")
			os.Rename(good.file("good.envb"), gp)
			os.Rename(bad.file("bad.envb"), bp)
			code, out, errs := runCLI(append([]string{"diff", gp, bp}, tc.args...)...)
			out = strings.ReplaceAll(out, dir+"/", "")
			if code != tc.wantCode || errs != "" {
				t.Errorf("exit %d, stderr %q; want exit %d\n%s", code, errs, tc.wantCode, out)
			}
			if tc.want != "" && out != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, tc.want)
			}
			lines := strings.Split(out, "\n")
			for _, w := range tc.contains {
				if !contains(lines, w) {
					t.Errorf("no line %q in:\n%s", w, out)
				}
			}
			for _, l := range lines[2:] {
				for _, p := range tc.absent {
					if strings.HasPrefix(l, p) {
						t.Errorf("unexpected line %q in:\n%s", l, out)
					}
				}
			}
		})
	}
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

func TestDiffJSON(t *testing.T) {
	good, bad := newDiffRun(t, 100), newDiffRun(t, 7000)
	for _, r := range []*diffRun{good, bad} {
		isBad := r == bad
		r.start = []trace.StartEvent{{Kind: trace.StartEnv, Name: "LANG", Value: map[bool]string{false: "C", true: "POSIX"}[isBad]}}
		diffPrologue(r)
		r.call(1, "openat", map[bool]int64{false: 3, true: -2}[isBad], "/etc/x.conf", diffAtFDCWD)
		if !isBad {
			tracetest.Out(r.call(1, "read", 2, "/etc/x.conf", 3, 0, 64), 1, "ok")
		}
	}
	code, out, errs := runCLI("diff", "--json", good.file("g.envb"), bad.file("b.envb"))
	if code != 1 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var kinds []string
	var objs []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		kinds = append(kinds, m["diff"].(string))
		objs = append(objs, m)
	}
	if got := strings.Join(kinds, " "); got != "call only_good start summary" {
		t.Fatalf("objects %q; want call only_good start summary\n%s", got, out)
	}
	c := objs[0]
	g, b := c["good"].(map[string]any), c["bad"].(map[string]any)
	if g["syscall"] != "openat" || g["ret"] != 3.0 || b["errno"] != "ENOENT" || c["ret"] != true {
		t.Errorf("call object %v", c)
	}
	if s := objs[2]; s["name"] != "LANG" || s["good"] != "C" || s["bad"] != "POSIX" {
		t.Errorf("start object %v", s)
	}
	if s := objs[3]; s["compared"] != 7.0 || s["differ"] != 1.0 || s["only_good"] != 1.0 || s["start"] != 1.0 {
		t.Errorf("summary %v", s)
	}
}

func TestDiffTrouble(t *testing.T) {
	good := newDiffRun(t, 100)
	diffPrologue(good)
	gp := good.file("good.envb")
	arm := newDiffRun(t, 100)
	arm.arch = "arm64"
	ap := arm.file("arm.envb")
	junk := filepath.Join(t.TempDir(), "junk")
	os.WriteFile(junk, []byte("not a trace at all, just some text\n"), 0o600)
	cases := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"one trace", []string{"diff", gp}, "diff needs two trace files"},
		{"missing", []string{"diff", gp, "/no/such.envb"}, "/no/such.envb"},
		{"not a trace", []string{"diff", junk, gp}, junk},
		{"architectures", []string{"diff", gp, ap}, "different architectures"},
		{"bad flag", []string{"diff", "--frob", gp, gp}, "unknown flag"},
		{"bad window", []string{"diff", "--window", "0", gp, gp}, "--window"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := runCLI(tc.args...)
			if code != 2 || !strings.Contains(errs, tc.wantErr) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, tc.wantErr)
			}
		})
	}
}

func TestDiffCutShort(t *testing.T) {
	good, bad := newDiffRun(t, 100), newDiffRun(t, 200)
	diffPrologue(good)
	diffPrologue(bad)
	bad.cut = true
	bp := bad.file("bad.envb")
	code, out, errs := runCLI("diff", good.file("good.envb"), bp)
	// The calls both have agree, but what the cut took away is unknown:
	// not "no differences" (0) but trouble (2), naming the trace.
	if code != 2 || !strings.Contains(errs, "warning: "+bp) || !strings.Contains(errs, bp+" is cut short: compared up to the last complete frame") ||
		!strings.Contains(out, "# 6 calls compared, 0 differ") {
		t.Errorf("exit %d, stderr %q, output:\n%s\nwant exit 2, a warning and an error naming %s, and 6 calls compared", code, errs, out, bp)
	}
}

// TestDiffRecorded records `cat FILE` twice, with FILE's content changed
// in between, and diffs the two traces.
func TestDiffRecorded(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace)
	dir := t.TempDir()
	file := filepath.Join(dir, "in.txt")
	rec := func(name, content string) string {
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		// stdout is a pipe, so that cat reads and writes instead of
		// copying with copy_file_range.
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { io.Copy(io.Discard, pr); pr.Close(); close(done) }()
		out := filepath.Join(dir, name)
		sum, err := record.Run(record.Options{Output: out, Argv: []string{"cat", "in.txt"}, Dir: dir, CPU: -1, Stdout: pw})
		pw.Close()
		<-done
		if err != nil {
			t.Fatalf("record: %v", err)
		}
		if sum.ExitCode != 0 {
			t.Fatalf("cat exited with %d", sum.ExitCode)
		}
		return out
	}
	gp := rec("good.envb", "one\ntwo\nthree\n")
	bp := rec("bad.envb", "one\nTWO\nthree\n")
	code, out, errs := runCLI("diff", gp, bp)
	if code != 1 {
		t.Fatalf("exit %d, stderr %q; want 1\n%s", code, errs, out)
	}
	lines := strings.Split(out, "\n")
	for _, w := range []string{"    -two", "    +TWO"} {
		if !contains(lines, w) {
			t.Errorf("no line %q in:\n%s", w, out)
		}
	}
	var reads int
	for _, l := range lines {
		if strings.HasPrefix(l, "- #") && strings.Contains(l, `read(3, "one\ntwo\nthree\n"`) {
			reads++
		}
		if strings.HasPrefix(l, "+ #") && strings.Contains(l, `read(3, "one\nTWO\nthree\n"`) {
			reads++
		}
		if strings.HasPrefix(l, "< ") || strings.HasPrefix(l, "> ") {
			t.Errorf("one-sided call %q: the two runs should align", l)
		}
	}
	if reads != 2 {
		t.Errorf("the read of in.txt is not shown as a differing pair:\n%s", out)
	}
}
