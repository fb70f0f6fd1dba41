package render

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// jsonLines decodes every line of out into a map.
func jsonLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var objs []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		objs = append(objs, m)
	}
	return objs
}

func TestJSON(t *testing.T) {
	var buf bytes.Buffer
	r := NewJSON(&buf, testRows, Options{})
	h := &trace.Header{Arch: "amd64", Command: []string{"cat", "x"}}
	openFail := withMem(call(nrOpenat, -2, atCWD, 0x1000, 0o2000000, 0), in(1, "/etc/x\x00"))
	openFail.Seq, openFail.TSeq, openFail.Enter, openFail.Exit, openFail.Path = 5, 4, 1_500_000_000, 1_500_002_000, "/etc/x"
	read := withMem(call(nrRead, 4, 3, 0x2000, 4096), out(1, "\x00\x01\x02\x03"))
	read.Proc, read.Thread, read.PID, read.TID, read.Seq = 2, 3, 200, 201, 6
	stat := withMem(call(nrNewfstatat, 0, atCWD, 0x1000, 0x2000, 0), in(1, "/etc/hosts\x00"), out(2, statAmd64(0o100644, 1234)))
	exit := &trace.Call{Seq: 8, Proc: 1, Thread: 1, Nr: nrExitGroup, NoReturn: true}
	events := []trace.Event{
		{Call: openFail}, {Call: read}, {Call: stat}, {Call: exit},
		{Proc: &trace.ProcEvent{Kind: trace.Exit, Proc: 2, Thread: 2, Status: 1, Seq: 8}},
		{Proc: &trace.ProcEvent{Kind: trace.Exit, Proc: 3, Thread: 4, Status: 137, Signal: 9}},
	}
	if err := r.Begin(h, []trace.StartEvent{{Kind: trace.StartEnv, Name: "LANG", Value: "C"}}); err != nil {
		t.Fatal(err)
	}
	for _, ev := range events {
		if err := r.Event(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Finish(&trace.End{ExitCode: 0, Calls: 8}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	if !strings.HasPrefix(lines[2], `{"event":"call","seq":5,"proc":1,"tid":1,"tseq":4,"pid":100,"kernel_tid":100,"syscall":"openat","nr":257,"args":`) {
		t.Errorf("call members out of order: %s", lines[2])
	}
	objs := jsonLines(t, buf.String())
	if len(objs) != 9 {
		t.Fatalf("got %d objects, want 9:\n%s", len(objs), buf.String())
	}
	check := func(obj map[string]any, key string, want any) {
		t.Helper()
		if got := obj[key]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %#v, want %#v in %v", key, got, want, obj)
		}
	}
	check(objs[0], "event", "header")
	check(objs[0], "arch", "amd64")
	check(objs[1], "event", "start")
	check(objs[1], "name", "LANG")

	o := objs[2]
	check(o, "seq", 5.0)
	check(o, "syscall", "openat")
	check(o, "args", []any{-100.0, "/etc/x", "O_RDONLY|O_CLOEXEC"})
	check(o, "raw_args", []any{float64(atCWD), 4096.0, float64(0o2000000), 0.0, 0.0, 0.0})
	check(o, "ret", -2.0)
	check(o, "errno", "ENOENT")
	check(o, "path", "/etc/x")
	check(o, "time", 1.5)
	check(o, "duration", 0.000002)
	if _, ok := o["path2"]; ok {
		t.Error("path2 present though empty")
	}

	o = objs[3]
	check(o, "proc", 2.0)
	check(o, "tid", 3.0)
	check(o, "pid", 200.0)
	check(o, "kernel_tid", 201.0)
	check(o, "ret", 4.0)
	if _, ok := o["errno"]; ok {
		t.Error("errno present on success")
	}
	check(o, "args", []any{3.0, map[string]any{"len": 4.0, "data": "AAECAw==", "encoding": "base64", "truncated": false, "excluded": false}, 4096.0})

	o = objs[4]
	args := o["args"].([]any)
	st := args[2].(map[string]any)
	check(st, "struct", "struct stat")
	dec := st["decoded"].(map[string]any)
	check(dec, "st_mode", "S_IFREG|0644")
	check(dec, "st_size", 1234.0)

	o = objs[5]
	check(o, "syscall", "exit_group")
	check(o, "no_return", true)
	for _, k := range []string{"ret", "errno", "duration"} {
		if _, ok := o[k]; ok {
			t.Errorf("%s present on a call that never returned", k)
		}
	}
	if lines[6] != `{"event":"exit","after_seq":8,"proc":2,"tid":2,"status":1,"time":0}` {
		t.Errorf("exit event: %s", lines[6])
	}
	check(objs[7], "signal", "SIGKILL")
	check(objs[8], "event", "end")
	check(objs[8], "calls", 8.0)
}

func TestJSONBuffers(t *testing.T) {
	tests := []struct {
		name string
		m    trace.Mem
		lim  int
		want map[string]any
	}{
		{"text", trace.Mem{Arg: 1, Dir: trace.Out, Len: 6, Data: []byte("hello\n")}, 0,
			map[string]any{"len": 6.0, "data": "hello\n", "encoding": "utf8", "truncated": false, "excluded": false}},
		{"control characters", trace.Mem{Arg: 1, Dir: trace.Out, Len: 3, Data: []byte("a\x00b")}, 0,
			map[string]any{"len": 3.0, "data": "YQBi", "encoding": "base64", "truncated": false, "excluded": false}},
		{"terminal colours", trace.Mem{Arg: 1, Dir: trace.Out, Len: 9, Data: []byte("\x1b[1mé\t\r\n")}, 0,
			map[string]any{"len": 9.0, "data": "\x1b[1mé\t\r\n", "encoding": "utf8", "truncated": false, "excluded": false}},
		{"binary", trace.Mem{Arg: 1, Dir: trace.Out, Len: 2, Data: []byte{0xff, 0xfe}}, 0,
			map[string]any{"len": 2.0, "data": "//4=", "encoding": "base64", "truncated": false, "excluded": false}},
		{"cut by limit", trace.Mem{Arg: 1, Dir: trace.Out, Len: 6, Data: []byte("hello\n")}, 2,
			map[string]any{"len": 6.0, "data": "he", "encoding": "utf8", "truncated": true, "excluded": false}},
		{"truncated", trace.Mem{Arg: 1, Dir: trace.Out, Len: 100, Data: []byte("abc"), Flag: trace.Truncated}, 0,
			map[string]any{"len": 100.0, "data": "abc", "encoding": "utf8", "truncated": true, "excluded": false}},
		{"excluded", trace.Mem{Arg: 1, Dir: trace.Out, Len: 100, Flag: trace.Excluded}, 0,
			map[string]any{"len": 100.0, "data": "", "encoding": "utf8", "truncated": false, "excluded": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := withMem(call(nrRead, int64(tt.m.Len), 3, 0x2000, 4096), tt.m)
			b, err := json.Marshal(NewJSONCall(testRows, c, tt.lim))
			if err != nil {
				t.Fatal(err)
			}
			var got struct{ Args []any }
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Args[1], tt.want) {
				t.Errorf("got %#v\nwant %#v", got.Args[1], tt.want)
			}
		})
	}
}

func TestJSONStringsAndSockaddr(t *testing.T) {
	c := withMem(call(nrExecve, 0, 0x1000, 0x2000, 0x3000), in(0, "/bin/ls\x00"),
		part(in(1, "ls\x00-l\x00"), trace.PartStrings), part(in(2, "A=1\x00"), trace.PartStrings))
	b, _ := json.Marshal(NewJSONCall(testRows, c, 0))
	if !strings.Contains(string(b), `"args":["/bin/ls",["ls","-l"],["A=1"]]`) {
		t.Errorf("execve args: %s", b)
	}
	c = withMem(call(nrConnect, 0, 3, 0x5000, 16), in(1, sockaddrIn([4]byte{127, 0, 0, 1}, 80)))
	b, _ = json.Marshal(NewJSONCall(testRows, c, 0))
	if !strings.Contains(string(b), `"decoded":{"sa_family":"AF_INET","sin_port":80,"sin_addr":"127.0.0.1"}`) {
		t.Errorf("connect args: %s", b)
	}
	c = call(999, 5, 1, 2)
	b, _ = json.Marshal(NewJSONCall(testRows, c, 0))
	if !strings.Contains(string(b), `"syscall":"syscall_999","nr":999,"args":[1,2,0,0,0,0]`) {
		t.Errorf("unknown syscall: %s", b)
	}
}

func TestJSONSelectedCallsOnly(t *testing.T) {
	var buf bytes.Buffer
	r := NewJSON(&buf, testRows, Options{Filter: Filter{Hide: map[uint32]bool{nrWrite: true}}})
	r.Begin(&trace.Header{Arch: "amd64"}, []trace.StartEvent{{Kind: trace.StartCwd, Value: "/"}})
	r.Event(trace.Event{Call: withMem(call(nrWrite, 1, 1, 0x1000, 1), in(1, "x"))})
	r.Event(trace.Event{Call: withMem(call(nrRead, 1, 0, 0x1000, 1), out(1, "y"))})
	r.Event(trace.Event{Proc: &trace.ProcEvent{Kind: trace.Exit, Proc: 1}})
	r.Finish(&trace.End{})
	objs := jsonLines(t, buf.String())
	if len(objs) != 1 || objs[0]["syscall"] != "read" {
		t.Errorf("got:\n%s", buf.String())
	}
}

// TestJSONUnknown: a call the table does not describe says so.
func TestJSONUnknown(t *testing.T) {
	j := NewJSONCall(testRows, &trace.Call{Seq: 1, Nr: 999, Args: [6]uint64{1}}, 0)
	if !j.Unknown || j.Syscall != "syscall_999" {
		t.Errorf("unknown call: %+v", j)
	}
	j = NewJSONCall(testRows, &trace.Call{Seq: 2, Nr: nrRead, Args: [6]uint64{3}}, 0)
	if j.Unknown {
		t.Errorf("read flagged unknown: %+v", j)
	}
}
