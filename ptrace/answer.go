package ptrace

import "github.com/envbisect/envbisect/trace"

// Answerer changes what the program sees of a call that stopped in an
// Answering run. Answer runs on the tracer thread, at the call's exit
// stop, and must not block: c holds the live call as a recording would
// (its arguments, result and captured memory). It changes the data of
// c's out-memory (Mem entries of Dir Out, same length or shorter) to
// what the program is to see and returns true, and the engine writes
// that data back into the program's buffers at the call's addresses; or
// it returns false and the program sees the live answer.
type Answerer interface {
	Answer(c *trace.Call) bool
}
