package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// TestUnseenIn: the first io_uring call and the first ptrace that failed
// with EPERM are each listed once, naming the process's executable; a
// ptrace that succeeded (not under envbisect's own tracing) is not.
func TestUnseenIn(t *testing.T) {
	tab, err := systable.New("amd64")
	if err != nil {
		t.Fatal(err)
	}
	nr := func(name string) uint32 {
		row, ok := tab.ByName(name)
		if !ok {
			t.Fatalf("no row %s", name)
		}
		return uint32(row.Nr)
	}
	call := func(seq uint64, name string, ret int64) trace.Event {
		return trace.Event{Call: &trace.Call{Seq: seq, Proc: 1, Thread: 1, PID: 42, TID: 42, Nr: nr(name), Ret: ret}}
	}
	events := []trace.Event{
		{Proc: &trace.ProcEvent{Kind: trace.Exec, Proc: 1, Thread: 1, PID: 42, Exe: "/usr/bin/app"}},
		call(1, "ptrace", 0),
		call(2, "io_uring_setup", 3),
		call(3, "io_uring_enter", 1),
		call(4, "ptrace", -1), // EPERM
		call(5, "ptrace", -1),
		call(6, "openat", -1),
	}
	got := UnseenIn(tab, events)
	if len(got) != 2 {
		t.Fatalf("got %+v, want the io_uring use and the nested ptrace", got)
	}
	if got[0].Kind != UnseenIOURing || got[0].Seq != 2 || got[0].Exe != "/usr/bin/app" || got[0].PID != 42 {
		t.Errorf("first use %+v, want io_uring at #2 by pid 42 /usr/bin/app", got[0])
	}
	if got[1].Kind != UnseenNestedPtrace || got[1].Seq != 4 {
		t.Errorf("second use %+v, want nested_ptrace at #4", got[1])
	}
	var b bytes.Buffer
	r := &LocateReport{Status: NoFailure, Unseen: got}
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "  pid 42 (/usr/bin/app) uses io_uring (io_uring_setup, call #2): its file I/O through the ring is not visible to envbisect"
	if !strings.Contains(b.String(), want) {
		t.Errorf("text report lacks %q:\n%s", want, b.String())
	}
}

// The tracer's warnings are listed in the text report, escaped, and in
// the JSON as "warnings".
func TestReportWarnings(t *testing.T) {
	r := &LocateReport{Status: NotRepeatable, Warnings: []string{"/usr/bin/chage is set-group-ID gid 42 but runs as gid 65534 under envbisect",
		"/tmp/x\x1b[2J is set-user-ID uid 0 but runs as uid 1000 under envbisect"}}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "The tracer warned in the runs:\n  /usr/bin/chage is set-group-ID gid 42 but runs as gid 65534 under envbisect\n" +
		`  /tmp/x\x1b[2J is set-user-ID`
	if !strings.Contains(b.String(), want) {
		t.Errorf("text:\n%s\nwant it to hold\n%s", b.String(), want)
	}
	j, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(j), `"warnings":["/usr/bin/chage is set-group-ID gid 42`) {
		t.Errorf("JSON %s has no warnings", j)
	}
}
