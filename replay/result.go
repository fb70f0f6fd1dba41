package replay

import (
	"strings"

	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/verdict"
)

// Result is what one semi-replay run did and how it was judged.
type Result struct {
	Verdict     verdict.Verdict `json:"verdict"`
	Detail      string          `json:"detail"`
	CheckOutput string          `json:"check_output,omitempty"`
	// Abortive: the deciding status was 128 or more or a signal
	// (verdict.Outcome.Abortive).
	Abortive bool    `json:"abortive,omitempty"`
	ExitCode int     `json:"exit_code"`
	Seconds  float64 `json:"seconds"`

	// Live calls by what happened to them.
	Replayed    int `json:"replayed"`    // skipped, recorded results written back
	Executed    int `json:"executed"`    // ran, live results seen
	Overwritten int `json:"overwritten"` // ran, recorded results written over the live ones
	Extra       int `json:"extra"`       // live calls with no recorded counterpart (they ran)
	// Unmatched counts recorded calls the live run passed over.
	Unmatched int `json:"unmatched"`

	Divergences []Divergence `json:"divergences"`
	// Taints say why the outcome can be an artifact of replay (a live
	// call that met a stand-in, a pass that skipped recorded work); none
	// when the verdict is the environment's (see taint.go).
	Taints []Taint `json:"taints,omitempty"`
	// Redirects are the replayed creations that failed here and were made
	// in the run's scratch area instead, where later calls on their paths
	// went.
	Redirects []trace.Redirect `json:"redirects,omitempty"`
	// Calls lists every live call, when Options.ListCalls asked for it.
	Calls []CallNote `json:"calls,omitempty"`
	// AddrRedirects are the binds whose address is taken here and that got
	// a free one instead, with the traced connects and sends that
	// followed them.
	AddrRedirects []trace.AddrRedirect `json:"address_redirects,omitempty"`

	// Live holds the live results of matched recorded calls that ran, by
	// recorded seq; empty with Options.NoLive.
	Live *LiveCalls `json:"-"`
	// Observed: the run was ended once every call of Options.ObserveOnly
	// had run live; its verdict says nothing of the command.
	Observed bool `json:"observed,omitempty"`
}

// Divergence is a live call that did not match the recorded call its
// thread was at.
type Divergence struct {
	// Kind is "extra" (the thread made a call the recording does not
	// have there; it ran, and the thread may realign) or "diverged" (it
	// could not realign: it and all its later calls run for real) or
	// "unmatched" (a live thread or process that is no recorded one: it
	// does something else from its first calls on, such as one more
	// `sleep` of a polling loop, and runs for real).
	Kind      string `json:"kind"`
	Proc      uint32 `json:"proc"`
	Thread    uint32 `json:"thread"`
	RecThread uint32 `json:"recorded_thread,omitempty"`
	AtSeq     uint64 `json:"at_seq,omitempty"` // the recorded call expected next
	Expected  string `json:"expected,omitempty"`
	Got       string `json:"got"`
}

// CallNote is one live call of a run and what the run did with it.
type CallNote struct {
	LiveSeq uint64 `json:"live_seq"`
	Seq     uint64 `json:"seq"` // the recorded call it matched, 0: none
	Proc    uint32 `json:"proc"`
	Thread  uint32 `json:"thread"`
	Syscall string `json:"syscall"`
	Path    string `json:"path,omitempty"`
	// Action is "replay", "execute" or "execute+overwrite" for a matched
	// call (the plan's action), else "extra", "diverged" or "unmatched".
	Action string `json:"action"`
	// Why says why the plan did not replay a matched call it could not
	// replay or had to run ("always executes", "needed by call 12",
	// "content not kept: PATH: ...; needed by call 14", "image not
	// stored: PATH: ...", which name the record flag that would keep the
	// file); "" otherwise.
	Why string `json:"why,omitempty"`
}

// Taint returns the run's taints as one line, "" when it has none.
func (r *Result) Taint() string {
	why := make([]string, len(r.Taints))
	for i, t := range r.Taints {
		why[i] = t.Why
	}
	return strings.Join(why, "; ")
}

// Diverged returns the divergences of kind "diverged": threads that ran
// for real from some point on.
func (r *Result) Diverged() []Divergence {
	var out []Divergence
	for _, d := range r.Divergences {
		if d.Kind == "diverged" {
			out = append(out, d)
		}
	}
	return out
}
