package bisect

import (
	"slices"
	"sort"
	"strings"

	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/systable"
)

// explainIdentity puts the identity items no run could apply
// (Options.Unapplied) into the report, and names the one that explains
// the culprit's error here, with the call as evidence; without a
// culprit, the first call of the failing run live (the run with
// everything replayed, or with nothing: the end that failed last, or the
// fail end when the search got past both ends) whose error one of them
// explains.
func (s *search) explainIdentity(rep *Report) {
	if len(s.o.Unapplied) == 0 {
		return
	}
	rep.Unapplied = s.o.Unapplied
	if c := rep.Culprit; c != nil {
		// Each cause an item explains says so in its explanation (the
		// capability by name, the filter, the mount): the modes of its
		// path, the same on both sides, do not explain it.
		causes := rep.Causes
		if !slices.Contains(causes, c) {
			causes = append([]*Culprit{c}, causes...)
		}
		explained := make([]*render.Cause, len(rep.Causes))
		for _, cu := range causes {
			if cu.Start != nil {
				continue
			}
			cs := render.ExplainCulprit(cu, rep.Unapplied, s.facts(cu.Seq))
			if cs == nil {
				continue
			}
			cu.Explanation = render.CauseSentence(cs)
			if cu == c {
				rep.Cause = cs
			}
			if i := slices.Index(rep.Causes, cu); i >= 0 {
				explained[i] = cs
			}
		}
		if rep.Status == Located {
			s.groupRoots(rep, explained)
		}
		return
	}
	failed, run := s.failedLive, render.CauseRunEverything
	if s.failedLive == nil {
		// The search ended without a culprit after its ends held (an
		// unconfirmed suspect, runs skipped): the fail end shows what
		// fails with nothing replayed.
		failed, run = s.failLive, render.CauseRunNothing
	}
	seqs := make([]uint64, 0, len(failed))
	for q := range failed {
		seqs = append(seqs, q)
	}
	sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
	rows := s.rows()
	for _, q := range seqs {
		live := failed[q]
		rec, ok := s.g.Call(q)
		if !ok {
			continue
		}
		fc := render.FailedCall{Seq: q, Syscall: rows.ByNr(int(rec.Nr)).Name, Path: rec.Path, Call: callString(rows, live),
			Denied: live.Denied, GoodDenied: rec.Denied}
		fc.Errno = errnoName(live.Errno())
		fc.GoodErrno = errnoName(rec.Errno())
		if cause := render.ExplainCall(fc, rep.Unapplied, s.facts(q)); cause != nil {
			cause.Run = run
			rep.Cause = cause
			return
		}
	}
}

// facts are the syscall table's facts about recorded call seq.
func (s *search) facts(seq uint64) render.CallFacts {
	var f render.CallFacts
	if call, ok := s.g.Call(seq); ok {
		if row := s.rows().ByNr(int(call.Nr)); row != nil {
			f.Capabilities = row.Capabilities()
			f.Execs = row.Effects&systable.ExecsImage != 0
			f.CreatesProcess = row.Effects&systable.CreatesProcess != 0
		}
	}
	return f
}

// errnoName is an errno's name ("EPERM"), "" for none.
func errnoName(e int) string {
	if e == 0 {
		return ""
	}
	name, _, _ := strings.Cut(render.ErrnoText(e), " ")
	return name
}
