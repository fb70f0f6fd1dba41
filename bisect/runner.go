package bisect

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/envbisect/envbisect/depgraph"

	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
)

// All is the Request.Prefix that asks for every recorded call to be
// replayed.
const All = render.AllCalls

// Request is one semi-replay run the search asks for.
type Request struct {
	// Start is how many of Options.Start are replayed: the command starts
	// with their recorded values. Every run that replays a call replays
	// them all.
	Start int
	// Prefix asks for the recorded calls with seq <= Prefix to be
	// replayed: 0 asks for none, All for every one. Which of them really
	// replay is the dependency closure's business:
	// g.Closure(r.Asks(g)).
	Prefix uint64
	// Groups asks for every call of these dependency groups (resources)
	// to be replayed, besides the prefix: a search over the resources
	// that differ here replays whole resources, so that no run shows the
	// program the recorded answer about an object and then the live one.
	Groups []depgraph.GroupID `json:",omitempty"`
	// StartExcept are start items (indexes into Options.Start, below
	// Start) not replayed after all, and Except dependency groups whose
	// calls are not asked for whatever Prefix says: a confirmation run
	// (confirm.go) asks for everything but one cause.
	StartExcept []int              `json:",omitempty"`
	Except      []depgraph.GroupID `json:",omitempty"`
	// Job is the parallel slot the run has, 0 to Options.Jobs-1; runs of
	// one round have different slots (a runner pins each slot to a CPU of
	// its own). Always 0 in a sequential search.
	Job int
	// Run is the run's number, 1-based, counting every run of the
	// locate (as Progress.Run does), and Role its part: "" for the
	// search proper, render.RoleConfirm or render.RoleCause. A runner
	// names the run's log by them (locate --logs).
	Run  int    `json:",omitempty"`
	Role string `json:",omitempty"`
}

// Asks returns whether the request asks for call seq of g to be
// replayed; it is the question to pass to g's Closure.
func (r Request) Asks(g *depgraph.Graph) func(seq uint64) bool {
	if len(r.Groups) == 0 && len(r.Except) == 0 {
		return func(seq uint64) bool { return seq <= r.Prefix }
	}
	in := make(map[depgraph.GroupID]bool, len(r.Groups))
	for _, id := range r.Groups {
		in[id] = true
	}
	out := make(map[depgraph.GroupID]bool, len(r.Except))
	for _, id := range r.Except {
		out[id] = true
	}
	return func(seq uint64) bool {
		gr := g.GroupOf(seq)
		if gr != nil && out[gr.ID] {
			return false
		}
		if seq <= r.Prefix {
			return true
		}
		return gr != nil && in[gr.ID]
	}
}

// StartOf returns the start items of items (Options.Start, or the
// runner's own form of them) that request r replays: the first r.Start,
// less r.StartExcept.
func StartOf[T any](r Request, items []T) []T {
	out := items[:min(r.Start, len(items))]
	if len(r.StartExcept) == 0 {
		return out
	}
	kept := make([]T, 0, len(out))
	for i, it := range out {
		if !slices.Contains(r.StartExcept, i) {
			kept = append(kept, it)
		}
	}
	return kept
}

// replaysNothing reports whether r asks for no start item and no call.
func (r Request) replaysNothing() bool {
	return r.Start == 0 && r.Prefix == 0 && len(r.Groups) == 0
}

// String says what the request replays, as the report's step table does:
// "none", "all", "up to 21", "start 1-2 + 3 resources".
func (r Request) String() string {
	var s string
	if len(r.Groups) > 0 && r.Prefix == 0 {
		s = render.ResourcesText(r.Start, len(r.Groups))
	} else {
		s = render.ReplayedText(r.Start, r.Prefix)
	}
	return s + render.ExceptText(len(r.StartExcept), len(r.Except))
}

// describe names the run of the request in an error message.
func (r Request) describe() string {
	if len(r.StartExcept) > 0 || len(r.Except) > 0 {
		return "run with " + r.String() + " replayed"
	}
	if len(r.Groups) > 0 && r.Prefix == 0 {
		return "run with " + r.String() + " replayed"
	}
	if r.Prefix == 0 && r.Start > 0 {
		return fmt.Sprintf("run with start items 1 to %d replayed", r.Start)
	}
	switch r.Prefix {
	case 0:
		return "run with no call replayed"
	case All:
		return "run with every call replayed"
	}
	return "run with calls up to " + strconv.FormatUint(r.Prefix, 10) + " replayed"
}

// Outcome is what one run gave.
type Outcome struct {
	Verdict Verdict
	// ExecCaps are set when the command did not start because the kernel
	// refused its exec with EPERM for the capabilities its file carries
	// with the effective bit (setcap CAP+ep), some outside the bounding
	// set here: those capabilities, as bit numbers (identity_end.go).
	ExecCaps []int
	// Detail is what decided the verdict, for the report: "exit status 1",
	// "check exited 0", "timed out after 5s", "not running after 2s".
	Detail string
	// Divergences has one human-readable line per place where the run
	// left the recording: a thread that could not be realigned and ran
	// for real from there on, or live calls the recording does not have
	// (an extra loop iteration, a different file opened), which ran for
	// real while the thread realigned. Reported with the step.
	Divergences []Divergence
	// Warnings are what the tracer warned of during the run (a program
	// that ran without its set-id privilege, processes left running):
	// the search lists each once in Report.Warnings.
	Warnings []string `json:",omitempty"`
	// Diverged is set when a thread could not be realigned: the verdict
	// is suspect, and the step is re-run.
	Diverged bool
	// Taint, when not empty, says why the outcome can be an artifact of
	// replay rather than the environment's doing (a live call failed on
	// a stand-in, the run passed while skipping recorded work). A tainted
	// run is neither pass nor fail: the search takes it as Skip, like
	// `git bisect run`'s exit 125, and the step carries the reason.
	Taint string
	// Live holds the live results of the recorded calls that executed in
	// this run, by recorded seq: the return value and the Out memory the
	// kernel wrote (Mem with Dir Out), as a recorder would store them. A
	// call the live run never made is absent, and the report says the
	// culprit "did not happen in this environment"; a runner must fill
	// Live for the report to show the culprit's live result.
	Live map[uint64]*trace.Call
	// Seconds is how long the run took; when 0 the search measures the
	// Run call itself.
	Seconds float64
	// Abortive: the command (or the check) exited with status 128 or
	// more, or was killed by a signal (verdict.Outcome.Abortive): `git
	// bisect run` stops there. The search itself takes the Verdict (Fail);
	// a runner that follows git returns an error instead.
	Abortive bool
}

// Runner runs one semi-replay run. The replay engine implements it for
// locate; tests give fakes. Run returns an error only when the run could
// not be made at all (the command could not start, the tracer failed):
// a failing command is a verdict, not an error. Run should return
// promptly with ctx's error once ctx is done.
type Runner interface {
	Run(ctx context.Context, r Request) (Outcome, error)
}

// RunnerFunc makes a function a Runner.
type RunnerFunc func(ctx context.Context, r Request) (Outcome, error)

// Run calls f.
func (f RunnerFunc) Run(ctx context.Context, r Request) (Outcome, error) { return f(ctx, r) }
