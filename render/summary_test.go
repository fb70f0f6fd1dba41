package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// summaryEvents: two reads (one failing), a write, an openat in another
// process with a second thread, and a process event.
func summaryEvents() []trace.Event {
	r1 := withMem(call(nrRead, 100, 3, 0x2000, 4096), trace.Mem{Arg: 1, Dir: trace.Out, Len: 100, Flag: trace.Excluded})
	r1.Enter, r1.Exit = 1_000_000, 1_100_000
	r2 := call(nrRead, -11, 3, 0x2000, 4096)
	r2.Seq, r2.Enter, r2.Exit = 2, 2_000_000, 2_000_500
	w := withMem(call(nrWrite, 5, 1, 0x3000, 10), in(1, "0123456789"))
	w.Seq, w.Proc, w.Thread, w.Enter, w.Exit = 3, 2, 2, 3_000_000, 3_500_000
	o := withMem(call(nrOpenat, 3, atCWD, 0x1000, 0, 0), in(1, "/x\x00"))
	o.Seq, o.Proc, o.Thread, o.Enter, o.Exit = 4, 2, 3, 4_000_000, 4_250_000
	return []trace.Event{{Call: r1}, {Call: r2}, {Proc: &trace.ProcEvent{Kind: trace.Spawn, Proc: 2, Thread: 2, Parent: 1}}, {Call: w}, {Call: o}}
}

func runSummary(t *testing.T, s *Summary, end *trace.End) string {
	t.Helper()
	h := &trace.Header{Arch: "amd64", Command: []string{"make", "test"}, Filtered: []string{"getpid", "gettid"}}
	if err := s.Begin(h, nil); err != nil {
		t.Fatal(err)
	}
	for _, ev := range summaryEvents() {
		if err := s.Event(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Finish(end); err != nil {
		t.Fatal(err)
	}
	return s.w.(*bytes.Buffer).String()
}

func TestSummary(t *testing.T) {
	got := runSummary(t, NewSummary(&bytes.Buffer{}, testRows, Options{}), &trace.End{ExitCode: 2, Calls: 4})
	want := `command:   make test
exit:      exited with 2
span:      3.25ms, from the first call at 0.001000s to the last return at 0.004250s
processes: 2, threads: 3
read:      100 bytes in 1 calls
written:   5 bytes in 1 calls

   calls   errors syscall
-------- -------- ----------------
       2        1 read
       1        0 openat
       1        0 write
-------- -------- ----------------
       4        1 total

not recorded (never stop the tracee): getpid gettid
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestSummaryFilteredAndCutShort(t *testing.T) {
	o := Options{Filter: Filter{Procs: map[uint32]bool{2: true}}}
	got := runSummary(t, NewSummary(&bytes.Buffer{}, testRows, o), nil)
	for _, line := range []string{
		"exit:      unknown, the trace was cut short\n",
		"calls:     2 of 4 recorded, selected by the filter\n",
		"processes: 1, threads: 2\n",
		"read:      0 bytes in 0 calls\n",
		"       2        0 total\n",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("missing %q in:\n%s", line, got)
		}
	}
}

func TestSummaryJSON(t *testing.T) {
	got := runSummary(t, NewJSONSummary(&bytes.Buffer{}, testRows, Options{}), &trace.End{ExitCode: 137, Signal: 9})
	var r SummaryReport
	if err := json.Unmarshal([]byte(got), &r); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	if !r.Complete || r.ExitCode == nil || *r.ExitCode != 137 || r.Signal != "SIGKILL" {
		t.Errorf("exit: %s", got)
	}
	if r.Calls != 4 || r.Errors != 1 || r.BytesRead != 100 || r.BytesWritten != 5 || r.Processes != 2 || r.Threads != 3 {
		t.Errorf("counts: %s", got)
	}
	if len(r.Syscalls) != 3 || r.Syscalls[0].Syscall != "read" || r.Syscalls[0].Calls != 2 {
		t.Errorf("syscalls: %s", got)
	}
	if strings.Count(got, "\n") != 1 {
		t.Errorf("want one line: %s", got)
	}
}
