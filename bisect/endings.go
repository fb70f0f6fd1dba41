package bisect

import (
	"fmt"
	"github.com/envbisect/envbisect/trace"
	"strconv"

	"github.com/envbisect/envbisect/render"
)

// The reports of each way the search can end.

func (s *search) report(st Status, msg string) *Report {
	return &Report{SchemaVersion: render.LocateSchemaVersion, Status: st, Message: msg, TracePath: s.o.TracePath, RunFlags: s.o.RunFlags}
}

// noFailure: the run with nothing replayed passed.
func (s *search) noFailure(decided) *Report {
	if s.o.RanAs != "" {
		return s.report(NoFailure, "passes here without replay ("+s.o.RanAs+"): nothing to locate")
	}
	return s.report(NoFailure, "passes here without replay: nothing to locate")
}

// stillFails: the run with every call replayed failed.
func (s *search) stillFails(d decided) *Report {
	r := s.report(ReplayStillFails, "still fails with every recorded call replayed: the difference is not in the "+
		"system-call interface, or the run diverged — see the divergences of that run")
	r.Divergences = d.out.Divergences
	s.failedLive = d.out.Live // what explains the failure (identity.go)
	return r
}

// nothingReplayable: the command fails and no call could be replayed.
func (s *search) nothingReplayable(d decided) *Report {
	s.failedLive = d.out.Live // what explains the failure (identity.go)
	return s.report(ReplayStillFails, "fails here, and the trace has no call that replay could change: every "+
		"recorded call always executes (process life, memory management, internal or input resources)")
}

// undecidedEnd: an end of the search was skipped twice.
func (s *search) undecidedEnd(i int, d decided) *Report {
	what := "whether the command fails here without replay"
	if i > 0 {
		what = "whether the command passes with every recorded call replayed"
	}
	msg := "cannot tell " + what + ": the step was skipped twice"
	if d.out.Detail != "" {
		msg += " (last run: " + d.out.Detail + ")"
	}
	return s.report(Inconclusive, msg)
}

// undecided: every prefix index in (lo, hi) was skipped; the culprit is
// one of units lo..hi-1 of the space.
func (s *search) undecided(lo, hi int) *Report {
	if lo < s.start {
		// The culprit may be a start item: name the items, then the rest.
		var labels []string
		for _, it := range s.o.Start[lo:min(hi, s.start)] {
			labels = append(labels, it.Label())
		}
		what := "calls"
		if s.sp.over == render.SpaceDiffering {
			what = "resources that differ here"
		}
		r := s.report(Inconclusive, fmt.Sprintf("cannot narrow down further: the runs that would tell them apart were "+
			"all skipped; the difference is one of the start items %v or of the first %d %s", labels, max(0, hi-s.start), what))
		r.CandidateLines = append(r.CandidateLines, labels...)
		s.listUnits(r, 0, max(0, hi-s.start))
		return r
	}
	lo, hi = lo-s.start, hi-s.start
	if s.sp.over == render.SpaceDiffering {
		r := s.report(Inconclusive, fmt.Sprintf("cannot narrow down further: the runs that would tell them apart were "+
			"all skipped; the difference is one of these %d resources", hi-lo))
		s.listUnits(r, lo, hi)
		return r
	}
	seqs := s.sp.calls[lo:hi]
	r := s.report(Inconclusive, fmt.Sprintf("cannot narrow down further: the runs that would tell calls %d to %d apart "+
		"were all skipped; the difference is one of these %d calls", seqs[0], seqs[len(seqs)-1], len(seqs)))
	s.listUnits(r, lo, hi)
	return r
}

// listUnits puts units lo..hi-1 after the start items into r's
// candidates: calls as show prints them, resources by title with the
// call where they differ.
func (s *search) listUnits(r *Report, lo, hi int) {
	if s.sp.over == render.SpaceDiffering {
		for _, gr := range s.sp.groups[lo:hi] {
			seq := s.sp.differs[gr.ID]
			if seq == 0 {
				seq = gr.Calls[0]
			}
			r.Candidates = append(r.Candidates, seq)
			r.CandidateLines = append(r.CandidateLines, fmt.Sprintf("%s (differs at call %d)", gr.Title(), seq))
		}
		return
	}
	rows := s.rows()
	for _, seq := range s.sp.calls[lo:hi] {
		r.Candidates = append(r.Candidates, seq)
		c, ok := s.g.Call(seq)
		if !ok {
			continue
		}
		who, exe := caller(&s.o, c)
		line := strconv.FormatUint(seq, 10) + " " + who + " "
		if exe != "" {
			line += exe + ": "
		}
		r.CandidateLines = append(r.CandidateLines, line+callString(rows, c))
	}
}

// located: the unit at index k is the culprit; atLo is the outcome of the
// failing run next to it, where it executed.
func (s *search) located(k int, atLo Outcome) *Report {
	if k < s.start {
		it := s.o.Start[k]
		msg := fmt.Sprintf("start item %s: the command passes here when it starts with the recorded %s", it.Label(), it.ValueWords(it.Good))
		if it.Kind == string(trace.StartSignal) {
			msg = fmt.Sprintf("start item %s: the command passes here when it starts with %s %s, as recorded", it.Label(), it.Name, it.ValueWords(it.Good))
		}
		r := s.report(Located, msg)
		r.Culprit = &Culprit{Start: &it}
		s.explain(r.Culprit, nil)
		return r
	}
	k -= s.start
	if s.sp.over == render.SpaceDiffering {
		gr := s.sp.groups[k]
		if s.sp.differs[gr.ID] == 0 && s.groupSameHere(gr, atLo.Live) {
			// Added because no run had reached it, and the failing run
			// next to it shows it the same as recorded.
			r := s.report(Inconclusive, fmt.Sprintf("replaying %s makes the command pass here, but its calls gave the "+
				"same answers here as recorded: the difference is not in it (the run may pass because of replay itself, "+
				"or of state no call shows)", gr.Title()))
			s.listUnits(r, k, k+1)
			return r
		}
		seq := s.named(gr, atLo.Live, s.obs)
		r := s.report(Located, fmt.Sprintf("%s differs here: replaying its %d recorded calls makes the command pass; "+
			"call %d of %d recorded is where it differs", gr.Title(), len(gr.Calls), seq, s.g.NumCalls()))
		r.Culprit, r.Group = s.culprit(seq, atLo.Live)
		r.Culprit.Flip = s.resourceFlip(gr, atLo.Live)
		return r
	}
	seq := s.sp.calls[k]
	// What the failing run next to the flip observed, and the fail end
	// for the calls that run replayed (the earlier calls of the flip's
	// resource among them): a resource is the same here only when all
	// its calls that ran anywhere answered as recorded.
	live := s.observedLive(atLo.Live)
	if len(s.sp.tried) > 0 && s.sameHere(seq, live) {
		r := s.report(Inconclusive, fmt.Sprintf("replaying call %d makes the command pass here, but it and every other call "+
			"on its resource gave the same answers here as recorded: the difference is not in it (the run may pass "+
			"because of replay itself, or of state no call shows)", seq))
		s.listUnits(r, k, k+1)
		return r
	}
	if s.identicalHere(seq, live) && s.sameHere(seq, live) {
		// This call gave here exactly what it gave in the recording, and
		// its resource answered as recorded: replaying it flips the
		// verdict, but it is not a cause a user can act on.
		r := s.report(Unconfirmed, fmt.Sprintf("unconfirmed: replaying call %d makes the command pass here, but it gave "+
			"exactly the recorded return value and data here, and every other call on its resource the same answers; "+
			"the difference is in state no compared result shows, or the run passes because of replay itself; no cause is named", seq))
		r.Suspect, _ = s.culprit(seq, live)
		return r
	}
	// The flip call is evidence; the culprit is the first call of its
	// resource that differs here (firstdiff.go).
	first, differs := s.firstDiffering(seq, live)
	msg := fmt.Sprintf("call %d of %d recorded: replaying its recorded result makes the command pass here", seq, s.g.NumCalls())
	if differs && first != seq {
		msg = fmt.Sprintf("call %d of %d recorded: replaying every call up to call %d makes the command pass here, and %s "+
			"first differs at call %d", first, s.g.NumCalls(), seq, s.g.GroupOf(seq).Title(), first)
	}
	r := s.report(Located, msg)
	r.Culprit, r.Group = s.culprit(first, live)
	r.Culprit.Flip = s.callFlip(seq, differs)
	return r
}
