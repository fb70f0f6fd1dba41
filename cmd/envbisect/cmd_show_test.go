package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// Syscall numbers of amd64, the architecture of the test traces.
const (
	showNrRead      = 0
	showNrWrite     = 1
	showNrExitGroup = 231
	showNrOpenat    = 257
)

const atFDCWDReg = uint64(1<<64 - 100)

// showTrace returns the events of a small recording: process 1 opens and
// reads /etc/hosts and spawns process 2, which writes and exits with 1.
func showTrace() (*trace.Header, []trace.StartEvent, []trace.Event, *trace.End) {
	h := &trace.Header{Tool: "test", Arch: "amd64", Kernel: "6.1.0", Host: "box", Command: []string{"sh", "-c", "cat /etc/hosts"},
		Cwd: "/src", Started: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Backend: trace.BackendPtraceSeccomp,
		Filtered: []string{"getpid"}}
	start := []trace.StartEvent{{Kind: trace.StartEnv, Name: "LANG", Value: "C.UTF-8"}, {Kind: trace.StartCwd, Value: "/src"}}
	open := &trace.Call{Seq: 1, Proc: 1, Thread: 1, TSeq: 1, PID: 100, TID: 100, Nr: showNrOpenat,
		Args: [6]uint64{atFDCWDReg, 0x1000, 0o2000000}, Ret: 3, Enter: 1000, Exit: 2000, Path: "/etc/hosts",
		Mem: []trace.Mem{{Arg: 1, Dir: trace.In, Len: 11, Data: []byte("/etc/hosts\x00")}}}
	read := &trace.Call{Seq: 2, Proc: 1, Thread: 1, TSeq: 2, PID: 100, TID: 100, Nr: showNrRead,
		Args: [6]uint64{3, 0x2000, 4096}, Ret: 6, Enter: 3000, Exit: 4000, Path: "/etc/hosts",
		Mem: []trace.Mem{{Arg: 1, Dir: trace.Out, Len: 6, Data: []byte("hello\n")}}}
	missing := &trace.Call{Seq: 3, Proc: 1, Thread: 1, TSeq: 3, PID: 100, TID: 100, Nr: showNrOpenat,
		Args: [6]uint64{atFDCWDReg, 0x1000, 0}, Ret: -2, Enter: 5000, Exit: 6000, Path: "/nope",
		Mem: []trace.Mem{{Arg: 1, Dir: trace.In, Len: 6, Data: []byte("/nope\x00")}}}
	write := &trace.Call{Seq: 4, Proc: 2, Thread: 2, TSeq: 1, PID: 101, TID: 101, Nr: showNrWrite,
		Args: [6]uint64{1, 0x3000, 3}, Ret: 3, Enter: 7000, Exit: 8000, Path: "pipe:[1]",
		Mem: []trace.Mem{{Arg: 1, Dir: trace.In, Len: 3, Data: []byte("hi\n")}}}
	exit := &trace.Call{Seq: 5, Proc: 2, Thread: 2, TSeq: 2, PID: 101, TID: 101, Nr: showNrExitGroup,
		Args: [6]uint64{1}, NoReturn: true, Enter: 9000}
	evs := []trace.Event{
		{Call: open}, {Call: read}, {Call: missing},
		{Proc: &trace.ProcEvent{Kind: trace.Spawn, Seq: 3, Proc: 2, Thread: 2, PID: 101, TID: 101, Parent: 1, ParentThread: 1, Index: 1}},
		{Call: write}, {Call: exit},
		{Proc: &trace.ProcEvent{Kind: trace.Exit, Seq: 5, Proc: 2, Thread: 2, PID: 101, Status: 1}},
	}
	end := &trace.End{Finished: h.Started.Add(time.Second), ExitCode: 0, Calls: 5, Procs: 2, Threads: 2}
	return h, start, evs, end
}

// writeShowTrace writes showTrace to a file; cut leaves out the end frame.
func writeShowTrace(t *testing.T, cut bool) string {
	t.Helper()
	return writeShowTraceWith(t, tracefile.Options{}, cut)
}

// writeShowTraceWith is writeShowTrace with the writer's options.
func writeShowTraceWith(t *testing.T, opts tracefile.Options, cut bool) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "good.envb")
	h, start, evs, end := showTrace()
	w, err := opts.Create(path, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteStart(start); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteEvents(evs); err != nil {
		t.Fatal(err)
	}
	if cut {
		err = w.Abort()
	} else {
		err = w.Close(end)
	}
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// runCLI runs envbisect with args and returns its exit code and output.
func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestShowText(t *testing.T) {
	path := writeShowTrace(t, false)
	code, out, errs := runCLI("show", path)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	want := `# command: sh -c 'cat /etc/hosts'
# recorded: 2025-01-02T03:04:05Z, host box, Linux 6.1.0, amd64, ptrace+seccomp, by envbisect test
# cwd: /src
# not recorded (never stop the tracee): getpid
# start: env LANG=C.UTF-8
# start: cwd /src
[1] openat(AT_FDCWD, "/etc/hosts", O_RDONLY|O_CLOEXEC) = 3
[1] read(3, "hello\n", 4096) = 6
[1] openat(AT_FDCWD, "/nope", O_RDONLY) = -1 ENOENT (No such file or directory)
[1] --- spawned [2] by fork ---
[2] write(1, "hi\n", 3) = 3
[2] exit_group(1) = ?
[2] +++ exited with 1 +++
# end: exited with 0; 5 calls, 2 processes, 2 threads
`
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestShowFlags(t *testing.T) {
	path := writeShowTrace(t, false)
	tests := []struct {
		name    string
		args    []string
		want    []string // lines that must be printed
		notWant []string // substrings that must not
	}{
		{"trace=read", []string{"-e", "trace=read"},
			[]string{`[1] read(3, "hello\n", 4096) = 6`, `[2] +++ exited with 1 +++`}, []string{"openat(", "write(", "exit_group("}},
		{"bare list", []string{"-e", "read,write"},
			[]string{`[1] read(3, "hello\n", 4096) = 6`, `[2] write(1, "hi\n", 3) = 3`}, []string{"openat(", "exit_group("}},
		{"repeated -e adds up", []string{"-e", "read", "-e", "trace=write"},
			[]string{`[1] read(3, "hello\n", 4096) = 6`, `[2] write(1, "hi\n", 3) = 3`}, []string{"openat("}},
		{"negated", []string{"-e", "trace=!openat,read"},
			[]string{`[2] write(1, "hi\n", 3) = 3`, `[2] exit_group(1) = ?`}, []string{"openat(", "read("}},
		{"proc", []string{"--proc", "2"},
			[]string{`[1] --- spawned [2] by fork ---`, `[2] write(1, "hi\n", 3) = 3`}, []string{"[1] openat(", "[1] read("}},
		{"proc list", []string{"--proc", "1,2", "-e", "trace=write"},
			[]string{`[2] write(1, "hi\n", 3) = 3`}, []string{"read("}},
		{"string limit", []string{"-s", "3"},
			[]string{`[1] read(3, "hel"..., 4096) = 6`}, nil},
		{"no start", []string{"--no-start"},
			[]string{"# command: sh -c 'cat /etc/hosts'"}, []string{"# start:"}},
		{"seq", []string{"--seq"},
			[]string{`#2 [1] read(3, "hello\n", 4096) = 6`}, nil},
		{"summary", []string{"--summary"},
			[]string{"exit:      exited with 0", "read:      6 bytes in 1 calls", "written:   3 bytes in 1 calls",
				"       2        1 openat", "       5        1 total", "not recorded (never stop the tracee): getpid"}, []string{"hello"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runCLI(append([]string{"show", path}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			lines := strings.Split(out, "\n")
			for _, w := range tt.want {
				found := false
				for _, l := range lines {
					found = found || l == w
				}
				if !found {
					t.Errorf("missing line %q in:\n%s", w, out)
				}
			}
			for _, nw := range tt.notWant {
				if strings.Contains(out, nw) {
					t.Errorf("unexpected %q in:\n%s", nw, out)
				}
			}
		})
	}
}

func TestShowJSON(t *testing.T) {
	path := writeShowTrace(t, false)
	code, out, errs := runCLI("show", "--json", path)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var objs []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		objs = append(objs, m)
	}
	var events []string
	for _, o := range objs {
		events = append(events, o["event"].(string))
	}
	if got, want := strings.Join(events, " "), "header start start call call call spawn call call exit end"; got != want {
		t.Fatalf("events: got %s, want %s", got, want)
	}
	read := objs[4]
	for k, want := range map[string]any{"seq": 2.0, "proc": 1.0, "tid": 1.0, "tseq": 2.0, "pid": 100.0, "kernel_tid": 100.0,
		"syscall": "read", "nr": 0.0, "ret": 6.0, "path": "/etc/hosts"} {
		if read[k] != want {
			t.Errorf("read %s: got %v, want %v", k, read[k], want)
		}
	}
	args := read["args"].([]any)
	if b := args[1].(map[string]any); b["data"] != "hello\n" || b["len"] != 6.0 || b["encoding"] != "utf8" {
		t.Errorf("read buffer: %v", b)
	}
	missing := objs[5]
	if missing["errno"] != "ENOENT" || missing["ret"] != -2.0 || missing["args"].([]any)[1] != "/nope" {
		t.Errorf("failed openat: %v", missing)
	}
	if objs[9]["status"] != 1.0 || objs[9]["proc"] != 2.0 {
		t.Errorf("exit event: %v", objs[9])
	}

	code, out, _ = runCLI("show", "--json", "--summary", path)
	var sum map[string]any
	if err := json.Unmarshal([]byte(out), &sum); code != 0 || err != nil {
		t.Fatalf("summary: exit %d, %v: %s", code, err, out)
	}
	if sum["calls"] != 5.0 || sum["errors"] != 1.0 || sum["exit_code"] != 0.0 {
		t.Errorf("summary: %s", out)
	}

	// With -e, JSON holds the selected calls and nothing else.
	code, out, _ = runCLI("show", "--json", "-e", "trace=read", path)
	if lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); code != 0 || len(lines) != 1 || !strings.HasPrefix(lines[0], `{"event":"call","seq":2,`) {
		t.Errorf("--json -e trace=read: exit %d:\n%s", code, out)
	}
}

func TestShowTruncated(t *testing.T) {
	path := writeShowTrace(t, true)
	code, out, errs := runCLI("show", path)
	if code != 0 {
		t.Fatalf("exit %d, want 0; stderr %q", code, errs)
	}
	if !strings.Contains(out, `[2] +++ exited with 1 +++`) || !strings.HasSuffix(out, "# end: missing, the trace was cut short\n") {
		t.Errorf("output:\n%s", out)
	}
	if !strings.HasPrefix(errs, "warning: "+path+": ") || strings.Count(errs, "\n") != 1 {
		t.Errorf("stderr: %q", errs)
	}
}

func TestShowErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeShowTrace(t, false)
	foreign := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(foreign, []byte("just some text, not a trace at all\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(dir, "corrupt.envb")
	data[len(data)-20] ^= 0xff // inside the last frames: their checksum no longer holds
	if err := os.WriteFile(corrupt, data, 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.envb")

	tests := []struct {
		name string
		args []string
		code int
		msg  []string // substrings of stderr
	}{
		{"missing file", []string{"show", missing}, 1, []string{missing, "no such file"}},
		{"foreign file", []string{"show", foreign}, 1, []string{foreign, "not an envbisect trace"}},
		{"corrupt file", []string{"show", corrupt}, 1, []string{corrupt, "corrupt"}},
		{"unknown syscall", []string{"show", good, "-e", "trace=read,nosuchcall"}, 2, []string{`"nosuchcall"`}},
		{"unknown class", []string{"show", good, "-e", "%bogus"}, 2, []string{"%bogus"}},
		{"other qualifier", []string{"show", good, "-e", "signal=SIGINT"}, 2, []string{"signal"}},
		{"no trace", []string{"show"}, 2, []string{"exactly one trace file"}},
		{"proc 0", []string{"show", good, "--proc", "0"}, 2, []string{"--proc 0"}},
		{"proc not a number", []string{"show", good, "--proc", "1,x"}, 2, []string{"--proc x"}},
		{"negative -s", []string{"show", good, "-s", "-1"}, 2, []string{"-s -1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := runCLI(tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.code, errs)
			}
			for _, m := range tt.msg {
				if !strings.Contains(errs, m) {
					t.Errorf("stderr %q does not mention %q", errs, m)
				}
			}
		})
	}
}

func TestShowWarnsOnUnrecordedSyscall(t *testing.T) {
	path := writeShowTrace(t, false)
	code, _, errs := runCLI("show", path, "-e", "trace=getpid")
	if code != 0 || !strings.Contains(errs, "warning: getpid is never in this trace") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}
