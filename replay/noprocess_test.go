package replay

import (
	"runtime"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// A trace without a spawn event of its first process is said to be cut
// short only when it has no end frame; a complete one is inconsistent.
func TestPrepareNoProcess(t *testing.T) {
	evs := []trace.Event{
		{Proc: &trace.ProcEvent{Kind: trace.Exec, Proc: 1, Thread: 1, Exe: "/usr/bin/true"}},
		{Call: &trace.Call{Seq: 1, Proc: 1, Thread: 1, TSeq: 1, Nr: 39}}, // getpid
	}
	for _, c := range []struct {
		name string
		end  *trace.End
		want string
		not  string
	}{
		{"cut short", nil, "the trace has no process: it was cut short before the command started", ""},
		{"complete", &trace.End{Calls: 1}, "the trace is complete (2 events and its end) but inconsistent: no spawn event introduces its first process", "cut short"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := &tracefile.Trace{Header: trace.Header{Arch: runtime.GOARCH}, Events: evs, End: c.end}
			_, err := prepare(tr)
			if err == nil || !strings.Contains(err.Error(), c.want) || (c.not != "" && strings.Contains(err.Error(), c.not)) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}
