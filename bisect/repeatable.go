package bisect

import (
	"context"
	"fmt"
	"strings"
)

// The repeatability check (Options.CheckRepeatable): a culprit is only as
// good as the runs that point at it. Runs that replay nothing must give
// the same verdict every time; when they do not, the command is flaky or
// depends on state that outlives a run (outside the sandbox), and the
// search ends as NotRepeatable instead of naming a call.

// repeatNote marks the runs of the check in the step table.
const repeatNote = "repeatability check"

// recheckFailEnd runs the fail end (nothing replayed) once more, as a step
// of its own, after its first run failed. It returns the report to end
// with when the runs disagree, nil when they agree or the check is off.
func (s *search) recheckFailEnd(ctx context.Context) (*Report, error) {
	if !s.o.CheckRepeatable {
		return nil, nil
	}
	v, err := s.noReplayAgain(ctx)
	if err != nil || v != Pass {
		return nil, err
	}
	return s.notRepeatable("the command failed here with nothing replayed, then passed when run again the same way"), nil
}

// recheckAtEnd runs the fail end once more after the search: a run with
// nothing replayed that now passes voids the culprit the search found.
func (s *search) recheckAtEnd(ctx context.Context, found *Report) (*Report, error) {
	if !s.o.CheckRepeatable {
		return found, nil
	}
	v, err := s.noReplayAgain(ctx)
	if err != nil {
		return nil, err
	}
	return s.endsRepeatable(found, v), nil
}

// endsRepeatable is found unless v, the verdict of the final run with
// nothing replayed, is Pass: then the runs were not repeatable.
func (s *search) endsRepeatable(found *Report, v Verdict) *Report {
	if v != Pass {
		return found
	}
	return s.notRepeatable(fmt.Sprintf("the command failed here with nothing replayed at the start of the search, and passed "+
		"with nothing replayed at its end (after %d runs): the runs change state they do not reset", len(s.steps)-1))
}

// noReplayAgain decides nothing replayed once more, as a step of its own
// (with Options.Repeat runs and their majority, as every step), and
// returns the verdict.
func (s *search) noReplayAgain(ctx context.Context) (Verdict, error) {
	s.est++
	if s.o.jobs() > 1 {
		s.mu.Lock()
		s.round++ // a round of its own
		s.mu.Unlock()
	}
	d, err := s.decideAs(ctx, 0, 0, s.newStep())
	if err != nil {
		return 0, err
	}
	s.markRepeat(d.at, d.v)
	return d.v, nil
}

// markRepeat notes run at of s.steps as a repeatability check.
func (s *search) markRepeat(at int, v Verdict) {
	s.mu.Lock()
	defer s.mu.Unlock()
	note := repeatNote
	if n := s.steps[at].Note; n != "" {
		note += " (" + n + ")"
	}
	s.steps[at].Taken, s.steps[at].Note = v, note
}

// repeatRuns counts the runs of steps that were repeatability checks:
// every run of such a step, not only the last, which carries the note.
func repeatRuns(steps []Step) int {
	checks := map[int]bool{}
	for _, st := range steps {
		if strings.HasPrefix(st.Note, repeatNote) {
			checks[st.Step] = true
		}
	}
	n := 0
	for _, st := range steps {
		if checks[st.Step] {
			n++
		}
	}
	return n
}

// notRepeatable: runs that replay nothing disagreed.
func (s *search) notRepeatable(why string) *Report {
	return s.report(NotRepeatable, "not repeatable: "+why+"; the command is flaky or depends on state outside the "+
		"sandbox (try --repeat N, or --reset CMD to restore that state before every run)")
}
