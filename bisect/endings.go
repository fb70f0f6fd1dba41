package bisect

import (
	"fmt"
	"strconv"

	"github.com/envbisect/envbisect/render"
)

// The reports of each way the search can end.

func (s *search) report(st Status, msg string) *Report {
	return &Report{Status: st, Message: msg, TracePath: s.o.TracePath, RunFlags: s.o.RunFlags}
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
// one of candidates[lo:hi].
func (s *search) undecided(lo, hi int) *Report {
	if lo < s.start {
		// The culprit may be a start item: name the items, then the calls.
		var labels []string
		for _, it := range s.o.Start[lo:min(hi, s.start)] {
			labels = append(labels, it.Label())
		}
		r := s.report(Inconclusive, fmt.Sprintf("cannot narrow down further: the runs that would tell them apart were "+
			"all skipped; the difference is one of the start items %v or of the first %d calls", labels, max(0, hi-s.start)))
		r.Candidates = append(r.Candidates, s.cands[:max(0, hi-s.start)]...)
		r.CandidateLines = append(r.CandidateLines, labels...)
		return r
	}
	lo, hi = lo-s.start, hi-s.start
	seqs := append([]uint64(nil), s.cands[lo:hi]...)
	r := s.report(Inconclusive, fmt.Sprintf("cannot narrow down further: the runs that would tell calls %d to %d apart "+
		"were all skipped; the difference is one of these %d calls", seqs[0], seqs[len(seqs)-1], len(seqs)))
	r.Candidates = seqs
	rows := s.rows()
	for _, seq := range seqs {
		c, ok := s.g.Call(seq)
		if !ok {
			continue
		}
		who, exe := caller(s.o.Events, c)
		line := strconv.FormatUint(seq, 10) + " " + who + " "
		if exe != "" {
			line += exe + ": "
		}
		r.CandidateLines = append(r.CandidateLines, line+callString(rows, c))
	}
	return r
}

// located: the call at candidate index k is the culprit; atLo is the
// outcome of the failing run next to it, where it executed.
func (s *search) located(k int, atLo Outcome) *Report {
	if k < s.start {
		it := s.o.Start[k]
		r := s.report(Located, fmt.Sprintf("start item %s: the command passes here when it starts with the recorded %s",
			it.Label(), render.StartValue(it.Good)))
		r.Culprit = &Culprit{Start: &it}
		return r
	}
	k -= s.start
	seq := s.cands[k]
	r := s.report(Located, fmt.Sprintf("call %d of %d recorded: replaying its recorded result makes the command pass here",
		seq, len(s.g.Calls())))
	r.Culprit, r.Group = s.culprit(seq, atLo.Live)
	return r
}
