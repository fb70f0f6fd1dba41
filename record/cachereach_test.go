package record

import (
	"testing"

	"github.com/envbisect/envbisect/trace"
)

type nopObserver struct{ events int }

func (o *nopObserver) Start([]trace.StartEvent) {}
func (o *nopObserver) Event(trace.Event)        { o.events++ }

// The warner speaks once, for a call naming the cache's directory or a
// path in it (not a sibling whose name only starts like it), passes every
// event on, and is not put in front of a run in a container.
func TestCacheReachWarner(t *testing.T) {
	next := &nopObserver{}
	var warnings []string
	o := newCacheReachWarner(next, "/home/u/.cache/envbisect/content", nil, func(s string) { warnings = append(warnings, s) })
	for _, c := range []trace.Call{
		{Path: "/home/u/.cache/envbisect/content-old/x"},
		{Path: "/home/u/.cache/envbisect"},
		{Path: "/home/u/src", Path2: "/home/u/.cache/envbisect/content/ab12"},
		{Path: "/home/u/.cache/envbisect/content"},
	} {
		o.Event(trace.Event{Call: &c})
	}
	o.Event(trace.Event{Proc: &trace.ProcEvent{}})
	if len(warnings) != 1 || next.events != 5 {
		t.Errorf("%d warnings, %d events passed on; want 1 (for content/ab12) and 5: %q", len(warnings), next.events, warnings)
	}
	if o := newCacheReachWarner(next, "/c", &trace.Join{PID: 1}, func(string) {}); o != next {
		t.Error("a run in a container got a warner: the cache is not in its root")
	}
}
