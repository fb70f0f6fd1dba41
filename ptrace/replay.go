package ptrace

import "github.com/envbisect/envbisect/trace"

// Replayer turns a traced run into a semi-replay run. The tracer asks it
// about every call as the call enters, and tells it the live results of
// every call that ran. Both methods run on the tracer thread, in the
// order the calls happen, and must not block.
type Replayer interface {
	// Enter decides about live call c, which is entering. c holds what
	// is known at entry: its process and thread (live logical ids, as in
	// the ProcEvents the Observer received), number, arguments, the
	// memory it passes in (paths, write buffers) and Path and Path2
	// resolved as the recorder resolves them.
	Enter(c *trace.Call) Decision
	// Exit reports the live results of a call Enter let run (Execute or
	// Overwrite), before any overwrite: c is complete, as a recording
	// would hold it. It is not called for calls that never return.
	Exit(c *trace.Call, d Decision)
}

// Verb is what happens to a live call.
type Verb uint8

const (
	// Execute: the call runs and the program sees its live results.
	Execute Verb = iota + 1
	// Skip: the call does not run; the program sees Rec's results: its
	// return value, and its out-memory written into the live buffers,
	// never past their live capacity. A call that made an fd gets a
	// stand-in (an empty memfd) on the recorded fd number, so that the
	// kernel's fd table keeps the shape the program believes in.
	Skip
	// Overwrite: the call runs, then the program sees Rec's results
	// instead of the live ones. Where Rec made an fd and the live call
	// did not, a stand-in takes the recorded number; where the live call
	// made an fd on another number, it is moved to the recorded one;
	// where Rec failed but the live call made an fd, that fd is closed.
	Overwrite
)

var verbNames = [...]string{Execute: "execute", Skip: "skip", Overwrite: "overwrite"}

func (v Verb) String() string {
	if int(v) < len(verbNames) && verbNames[v] != "" {
		return verbNames[v]
	}
	return "unknown"
}

// Decision is a Replayer's answer for one live call.
type Decision struct {
	Verb Verb
	Rec  *trace.Call // the recorded call whose results the program sees (Skip, Overwrite)
}
