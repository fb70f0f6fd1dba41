package bisect

import (
	"context"
	"testing"
)

func TestRepeatabilityCheck(t *testing.T) {
	b := standard(t)
	g := b.graph()
	culprit := Candidates(g)[len(Candidates(g))/2]
	cases := []struct {
		name string
		// passAt: the runs with nothing replayed (1-based) that pass.
		passAt map[int]bool
		want   Status
		runs0  int // runs with nothing replayed
	}{
		{"repeatable", nil, Located, 3},
		{"flaky at the start", map[int]bool{2: true}, NotRepeatable, 2},
		{"state left behind", map[int]bool{3: true}, NotRepeatable, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &fake{g: g, culprit: culprit, verdict: func(r Request, n int) (Outcome, bool) {
				if r.Prefix == 0 && r.Start == 0 && c.passAt[n] {
					return Outcome{Verdict: Pass, Detail: "exit status 0"}, true
				}
				return Outcome{}, false
			}}
			rep, err := Locate(context.Background(), g, f, Options{Events: b.Events, CheckRepeatable: true, Isolation: "isolated"})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Status != c.want {
				t.Fatalf("status %s (%s), want %s", rep.Status, rep.Message, c.want)
			}
			if c.want == Located && rep.Culprit.Seq != culprit {
				t.Errorf("culprit %d, want %d", rep.Culprit.Seq, culprit)
			}
			if c.want != Located && (rep.Culprit != nil || rep.ExitCode() != 3) {
				t.Errorf("a not repeatable search named %+v, exit %d", rep.Culprit, rep.ExitCode())
			}
			if f.count[0] != c.runs0 {
				t.Errorf("%d runs with nothing replayed, want %d", f.count[0], c.runs0)
			}
			if rep.Isolation != "isolated" || allRuns(rep) != len(f.runs) || rep.RepeatRuns != c.runs0-1 {
				t.Errorf("isolation %q, runs %d + %d repeat runs of %d", rep.Isolation, rep.Runs, rep.RepeatRuns, len(f.runs))
			}
			if last := rep.Steps[len(rep.Steps)-1]; last.Note != repeatNote {
				t.Errorf("last step note %q", last.Note)
			}
		})
	}
}

// TestParallelRepeatabilityCheck: with --jobs 2 the repeatability check's
// runs share rounds with the search's, and still decide as sequentially.
func TestParallelRepeatabilityCheck(t *testing.T) {
	b := standard(t)
	g := b.graph()
	culprit := Candidates(g)[len(Candidates(g))/2]
	cases := []struct {
		name   string
		passAt map[int]bool // the runs with nothing replayed (1-based) that pass
		want   Status
	}{
		{"repeatable", nil, Located},
		{"flaky at the start", map[int]bool{2: true}, NotRepeatable},
		{"state left behind", map[int]bool{3: true}, NotRepeatable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &fake{g: g, culprit: culprit, verdict: func(r Request, n int) (Outcome, bool) {
				if r.Prefix == 0 && r.Start == 0 && c.passAt[n] {
					return Outcome{Verdict: Pass, Detail: "exit status 0"}, true
				}
				return Outcome{}, false
			}}
			rep, err := Locate(context.Background(), g, &lockedRunner{r: f}, Options{Events: b.Events, CheckRepeatable: true, Jobs: 2})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Status != c.want {
				t.Fatalf("status %s (%s), want %s", rep.Status, rep.Message, c.want)
			}
			if c.want == Located && rep.Culprit.Seq != culprit {
				t.Errorf("culprit %d, want %d", rep.Culprit.Seq, culprit)
			}
			if c.want != Located && rep.Culprit != nil {
				t.Errorf("a not repeatable search named %+v", rep.Culprit)
			}
			notes := 0
			for _, st := range rep.Steps {
				if st.Note == repeatNote {
					notes++
				}
			}
			if rep.RepeatRuns != notes || notes == 0 {
				t.Errorf("%d repeat runs, %d steps noted as the check", rep.RepeatRuns, notes)
			}
		})
	}
}

// TestRepeatabilityCheckTakesTheMajority: with Options.Repeat the check
// is a step like the others: one flaky pass among its runs is outvoted,
// and every run of the check counts as a repeat run.
func TestRepeatabilityCheckTakesTheMajority(t *testing.T) {
	b := standard(t)
	g := b.graph()
	culprit := Candidates(g)[len(Candidates(g))/2]
	f := &fake{g: g, culprit: culprit, verdict: func(r Request, n int) (Outcome, bool) {
		if r.Prefix == 0 && r.Start == 0 && n == 4 { // the check's first run
			return Outcome{Verdict: Pass, Detail: "exit status 0"}, true
		}
		return Outcome{}, false
	}}
	rep, err := Locate(context.Background(), g, f, Options{Events: b.Events, CheckRepeatable: true, Repeat: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != culprit {
		t.Fatalf("status %s (%s), want located at %d", rep.Status, rep.Message, culprit)
	}
	if allRuns(rep) != len(f.runs) || rep.RepeatRuns != 6 {
		t.Errorf("runs %d + %d repeat runs of %d; want 6 repeat runs (two checks of 3)", rep.Runs, rep.RepeatRuns, len(f.runs))
	}
}
