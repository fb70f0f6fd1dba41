package bisect

import (
	"context"
	"fmt"

	"github.com/envbisect/envbisect/envobj"
)

// The object search's API: what LocateObjects asks of a run, what a run
// gives back, and the names of its result (plain data of package envobj,
// which render presents). See the package documentation, "The object
// search".

type (
	// ObjectReport is the result of LocateObjects.
	ObjectReport = envobj.Result
	// ObjectCause is one cause LocateObjects found, with its fix.
	ObjectCause = envobj.ResultCause
	// ObjectStep is one run of LocateObjects.
	ObjectStep = envobj.ResultStep
)

// ObjectRequest is one materialized run the object search asks for: the
// good state of these objects put in place in the run's sandbox, the
// command started with these start items' good values, and everything
// else as it is here.
type ObjectRequest struct {
	// Objects are indexes into the objects given to LocateObjects, in
	// increasing order; each is materializable (Object.Ops succeeds).
	Objects []int `json:",omitempty"`
	// Start are indexes into the start items given to LocateObjects, in
	// increasing order.
	Start []int `json:",omitempty"`
	// InPlace says what the run puts in place, as the report's steps do:
	// "nothing", "everything", "directory /etc/app.d + env TZ", "all but
	// /tmp".
	InPlace string
	// Run is the run's number, 1-based, counting every run of the search,
	// and Role its part: "" for the search proper, render.RoleConfirm
	// ("confirm") for a run that confirms the causes. A runner
	// names the run's log by them.
	Run  int    `json:",omitempty"`
	Role string `json:",omitempty"`
	// Narrow lets the runner narrow the run's isolation to where the
	// recording wrote (sandbox.Spec.Narrow): a run of the search proper
	// when ObjectOptions.Narrow is set. False: every writable mount is
	// isolated, as in a confirming run.
	Narrow bool `json:",omitempty"`
}

// Ops returns the sandbox operations of the request's objects, in the
// order of the request (objs are the objects given to LocateObjects):
// what a materialized run applies before the command starts.
func (r ObjectRequest) Ops(objs []envobj.Object) ([]envobj.Op, error) {
	var out []envobj.Op
	for _, i := range r.Objects {
		if i < 0 || i >= len(objs) {
			return nil, fmt.Errorf("object request: no object %d (of %d)", i, len(objs))
		}
		ops, err := objs[i].Ops()
		if err != nil {
			return nil, fmt.Errorf("object request: %w", err)
		}
		out = append(out, ops...)
	}
	return out, nil
}

// StartOf returns the start items of items (those given to
// LocateObjects, or the runner's own form of them) that the request
// gives their good value.
func (r ObjectRequest) StartOf(items []StartItem) []StartItem {
	out := make([]StartItem, 0, len(r.Start))
	for _, i := range r.Start {
		if i >= 0 && i < len(items) {
			out = append(out, items[i])
		}
	}
	return out
}

// ObjectOutcome is what one materialized run gave.
type ObjectOutcome struct {
	Verdict Verdict
	// Detail is what decided the verdict: "exit status 1", "check exited
	// 0", "timed out after 5s".
	Detail string
	// Exit is the command's exit status when it exited; nil when it was
	// killed or did not start.
	Exit *int
	// Seconds is how long the run took; when 0 the search measures the
	// RunObjects call itself.
	Seconds float64
	// Warnings are what the run warned of (processes left running): the
	// search lists each once in the report.
	Warnings []string
	// Stops are, for a run that put a kernel answer in place, the calls
	// that stopped the command (it ran under ptrace, stopped there
	// only); nil for an untraced run.
	Stops []string
}

// ObjectRunner makes one materialized run: the objects a request names
// put in place in the run's throwaway sandbox (ObjectRequest.Ops), the
// command started with the request's start items, and judged. RunObjects
// returns an error only when the run could not be made at all; a
// command that fails is a verdict. It should return promptly with ctx's
// error once ctx is done.
type ObjectRunner interface {
	RunObjects(ctx context.Context, r ObjectRequest) (ObjectOutcome, error)
}

// ObjectRunnerFunc makes a function an ObjectRunner.
type ObjectRunnerFunc func(ctx context.Context, r ObjectRequest) (ObjectOutcome, error)

// RunObjects calls f.
func (f ObjectRunnerFunc) RunObjects(ctx context.Context, r ObjectRequest) (ObjectOutcome, error) {
	return f(ctx, r)
}

// ObjectOptions tune LocateObjects. The zero value runs each step once.
type ObjectOptions struct {
	// Repeat runs every step this many times and takes the majority
	// verdict; a tie gets one more run, and a tie after it makes the step
	// a skip. 0 and 1 run each step once.
	Repeat int
	// CheckRepeatable runs the fail end (nothing in place) a second time:
	// when it passes, the search ends as NotRepeatable.
	CheckRepeatable bool
	// Narrow makes the runs of the search proper narrowed ones
	// (ObjectRequest.Narrow), which are faster: a write where the
	// recording did not write fails in them, so the runs that confirm
	// the causes are isolated in full, and a search that ends with
	// anything but confirmed causes is made again, isolated in full
	// (the report's Warnings say so): narrowing never names a cause the
	// fully isolated runs do not bear out.
	Narrow bool
	// Progress, if not nil, is called before and after every run.
	Progress func(ObjectProgress)
}

// ObjectProgress tells the caller where the object search is; it is
// sent before a run (Done false) and after it.
type ObjectProgress struct {
	Step    int // the search step, 1-based; a step's repeated runs share it
	Run     int // the run, 1-based
	Request ObjectRequest
	Done    bool
	Outcome ObjectOutcome // after the run
}

func (o *ObjectOptions) repeat() int { return max(1, o.Repeat) }
