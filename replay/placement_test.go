package replay

import (
	"testing"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/trace"
)

// TestWithPlacement: the sched_getaffinity call is asked for in every
// run where envbisect pinned the command on either side (or the trace
// does not say), and left to the plan when neither side was pinned; the
// plan's closure then replays it.
func TestWithPlacement(t *testing.T) {
	b := tracetest.New(t)
	b.Events = append(b.Events, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1, Index: 1}})
	b.Call("getpid", 1, 1, "getpid", 100, nil)
	b.Call("affinity", 1, 1, "sched_getaffinity", 8, []uint64{0, 128, 0x1000}, tracetest.Mem(2, trace.PartWhole, trace.Out, []byte{3, 0, 0, 0, 0, 0, 0, 0}))
	rec := synth(t, b.Events)
	none := func(uint64) bool { return false }
	aff := b.L("affinity")

	for _, c := range []struct {
		name      string
		start     []trace.StartEvent
		runPinned bool
		asked     bool
	}{
		{"unpinned both", []trace.StartEvent{{Kind: trace.StartCPUs, Name: trace.CPUsInherited, Value: "0-1"}}, false, false},
		{"recorded unpinned, run pinned", []trace.StartEvent{{Kind: trace.StartCPUs, Name: trace.CPUsInherited, Value: "0-1"}}, true, true},
		{"recorded pinned, run unpinned", []trace.StartEvent{{Kind: trace.StartCPUs, Name: trace.CPUsPinned, Value: "1"}}, false, true},
		{"old trace", nil, false, true},
	} {
		rec.Trace.Start = c.start
		asks := rec.WithPlacement(none, c.runPinned)
		if asks(aff) != c.asked || asks(b.L("getpid")) {
			t.Errorf("%s: sched_getaffinity asked %v, want %v (getpid asked %v)", c.name, asks(aff), c.asked, asks(b.L("getpid")))
		}
		if c.asked && rec.Graph.Closure(asks).Action(aff) != depgraph.Replay {
			t.Errorf("%s: the closure does not replay sched_getaffinity: %v", c.name, rec.Graph.Closure(asks).Action(aff))
		}
	}
}
