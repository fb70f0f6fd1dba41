package record

import (
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
)

// unseenWarner is the observer in front of a recording's batcher: it
// warns, once per kind, of what the command does that envbisect cannot
// see or let it do (io_uring, a ptrace of its own: render.UnseenFinder,
// which locate's report reads from the same calls), and passes every
// event on. The calls stay in the trace as recorded.
type unseenWarner struct {
	launch.Observer
	find *render.UnseenFinder
	warn func(string)
}

// Event implements launch.Observer. It runs on the tracer thread: a
// table lookup per call.
func (u *unseenWarner) Event(ev trace.Event) {
	if use := u.find.Event(ev); use != nil {
		u.warn(use.Message)
	}
	u.Observer.Event(ev)
}
