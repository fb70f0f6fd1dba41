package bisect

import (
	"fmt"
	"sort"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// A call that makes a kernel object (a raw socket) failed here because a
// capability it needs is outside the bounding set, and no run can give
// the command that capability (it is an unapplied item: envbisect itself
// lacks it, or a container does). Replaying the call would hand the
// program a stand-in for the object (a descriptor of the serving side's
// that is not a socket), and the calls it then makes on it fail in ways
// the good run never saw (recvmsg = ENOTSOCK): every run past that call
// tells nothing, and the search would end inconclusive. So the search
// ends at the fail end instead, with that call as the culprit and the
// capability as its cause (render.ExplainCall), when it is the first
// call of the run with nothing replayed that failed otherwise than
// recorded: the kernel's own rule (capabilities(7)) explains it, and the
// report says that no run validated it.

// identityEnd returns the report that ends the search at fail, the run
// with nothing replayed, when its first call that failed otherwise than
// recorded made a new descriptor in the good run and is explained by a
// capability missing from the bounding set here (an unapplied item);
// nil otherwise.
func (s *search) identityEnd(fail decided) *Report {
	if len(s.o.Unapplied) == 0 {
		return nil
	}
	if len(fail.out.ExecCaps) > 0 {
		return s.execCapsEnd(fail.out.ExecCaps)
	}
	live := fail.out.Live
	seqs := make([]uint64, 0, len(live))
	for q := range live {
		seqs = append(seqs, q)
	}
	sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
	rows := s.rows()
	for _, q := range seqs {
		l := live[q]
		rec, ok := s.g.Call(q)
		if !ok || l == nil || l.Errno() == 0 || l.Errno() == rec.Errno() && l.Denied == rec.Denied {
			continue
		}
		// The first call that failed otherwise than recorded.
		row := rows.ByNr(int(rec.Nr))
		if row == nil || row.Effects&systable.CreatesFD == 0 || rec.Errno() != 0 || l.Denied {
			return nil
		}
		fc := render.FailedCall{Seq: q, Syscall: row.Name, Path: rec.Path, Call: callString(rows, l),
			Errno: errnoName(l.Errno()), GoodErrno: errnoName(rec.Errno())}
		cause := render.ExplainCall(fc, s.o.Unapplied, s.facts(q))
		if cause == nil || cause.Item.Kind != string(trace.StartCaps) {
			return nil
		}
		r := s.report(Located, fmt.Sprintf("call %d of %d recorded: %s; no run can give the command the capability, so no run "+
			"replayed the call (it would get a stand-in, not the object the kernel makes with the capability) or validated the cause: "+
			"the kernel's capability rules name it", q, s.g.NumCalls(), cause.Text))
		r.Culprit, r.Group = s.culprit(q, live)
		r.Culprit.Unreplayed = true
		r.Cause = cause
		return r
	}
	return nil
}

// execCapsEnd is identityEnd for a command that never started: the
// kernel refused its exec with EPERM because its file carries caps (with
// the effective bit) outside the bounding set here (Outcome.ExecCaps).
// When an unapplied bounding-set item lacks one of them, the search ends
// with the recorded exec as the culprit and that capability as its
// cause: no run can start the command, so none can tell more.
func (s *search) execCapsEnd(caps []int) *Report {
	rows := s.rows()
	for rec := range s.g.AllCalls() {
		row := rows.ByNr(int(rec.Nr))
		if row == nil || row.Effects&systable.ExecsImage == 0 {
			continue
		}
		// The command's own exec, the first the recording holds.
		if rec.Errno() != 0 {
			return nil
		}
		live := *rec
		live.Ret = -int64(unix.EPERM)
		fc := render.FailedCall{Seq: rec.Seq, Syscall: row.Name, Path: rec.Path, Call: callString(rows, &live), Errno: "EPERM"}
		cause := render.ExplainCall(fc, s.o.Unapplied, render.CallFacts{Capabilities: caps, Execs: true})
		if cause == nil || cause.Item.Kind != string(trace.StartCaps) {
			return nil
		}
		r := s.report(Located, fmt.Sprintf("call %d of %d recorded: %s (the file carries it with the effective bit, so the kernel "+
			"refuses the exec without it); the command never starts here, so no run could replay past it or validate the cause: "+
			"the kernel's capability rules name it", rec.Seq, s.g.NumCalls(), cause.Text))
		r.Culprit, r.Group = s.culprit(rec.Seq, map[uint64]*trace.Call{rec.Seq: &live})
		r.Culprit.Image = nil // no run ran the recorded image in its place
		r.Culprit.Unreplayed = true
		r.Culprit.Explanation = render.CauseSentence(cause)
		r.Cause = cause
		return r
	}
	return nil
}
