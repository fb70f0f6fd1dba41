package replay

import (
	"github.com/envbisect/envbisect/trace"
)

// The CPUs the command may run on are envbisect's choice when it pins
// the command (--cpu auto or N, in the recording or in a run): a
// command that asks for them (sched_getaffinity: nproc, Python's
// os.sched_getaffinity) sees one CPU where it was pinned and every
// inherited one where it was not. When that answer is envbisect's own
// doing on either side (trace.Placement.OwnDoing), the calls whose
// answer it is (systable's Placement column) are replayed in every run,
// the run with nothing else replayed included: the command sees the
// recording's CPUs, no run fails for envbisect's placement, and the
// search, which compares what executed with the recording, never finds
// such a call differing or flipping the verdict. When neither side was
// pinned the answer is the environment's (8 CPUs there, 2 here; a
// container's cpuset; a taskset around locate) and executes as any
// call does, to be found like any difference.

// WithPlacement returns asks (the question a depgraph Closure takes:
// is recorded call seq asked to be replayed?) extended to the calls
// whose answer is the command's CPUs, when a run pinned as runPinned
// says would otherwise see envbisect's placement instead of the
// environment's; otherwise asks itself.
func (r *Recording) WithPlacement(asks func(seq uint64) bool, runPinned bool) func(seq uint64) bool {
	if !trace.PlacementOf(r.Trace.Start).OwnDoing(runPinned) || len(r.placement) == 0 {
		return asks
	}
	return func(seq uint64) bool { return r.placement[seq] || asks(seq) }
}
