package replay

import (
	"fmt"

	"github.com/envbisect/envbisect/verdict"
)

// The "unreached" taint: a passing run whose processes ended by
// themselves having reached less than reachedShareNum/reachedShareDen of
// their recorded calls, with at least minUnreached calls never reached,
// may have passed without doing the recorded work (an interpreter that
// read an empty script and exited 0). Why these figures is in
// docs/locate.md, "Tainted runs":
//   - Only processes that ended by themselves (exit or exit_group, no
//     signal) count. A daemon judged by --alive, a process the run's end
//     killed, or one killed by a timeout is cut short by envbisect, not
//     by itself, while its recording may go on well past that point.
//   - A thread that follows the good path reaches most of its recording:
//     the alignment window matches a live call a few recorded calls
//     ahead (the skipped ones count as reached), and after a divergence
//     each live call counts as one recorded call reached. So half is far
//     from what a fix that takes the good path gives, and far above what
//     a program that stopped at its start-up gives.
//   - The floor keeps small recordings (the thesis' cases have 16 to 30
//     calls) out: a pass that ends a few calls early (an error path's
//     clean-up it did not need) is not a large part of the recording.
const (
	reachedShareNum = 1
	reachedShareDen = 2
	minUnreached    = 64
)

// reach counts, over the live threads of the processes that ended by
// themselves, the recorded calls of their matched threads and how many
// of those the run reached.
type reach struct {
	reached, recorded int
}

// tainted reports whether a passing run with this reach skipped a large
// part of its recording.
func (r reach) tainted() bool {
	return r.recorded-r.reached >= minUnreached && r.reached*reachedShareDen < r.recorded*reachedShareNum
}

// reach sums what the live threads of processes that ended by
// themselves reached of their recorded threads: the recorded calls the
// alignment went past, plus, once a thread diverged, one for each live
// call it made after, up to its recorded length.
func (b *binder) reach() reach {
	var r reach
	for _, lt := range b.threads {
		p := b.procs[lt.proc]
		if lt.rec == nil || p == nil || !p.endedItself {
			continue
		}
		n := len(lt.rec.calls)
		r.recorded += n
		r.reached += min(n, lt.stream.Next()+lt.afterDivergence)
	}
	return r
}

// unreached taints a passing run that ended with a large part of the
// recording never reached (reach.tainted).
func (e *engine) unreached(v verdict.Verdict) {
	if v != verdict.Pass {
		return
	}
	r := e.bind.reach()
	if !r.tainted() {
		return
	}
	e.taint(Taint{Kind: "unreached",
		Why: fmt.Sprintf("passed, but its processes ended by themselves having reached %d of their %d recorded calls", r.reached, r.recorded)})
}
