package bisect

import (
	"testing"
)

// A tainted run (its outcome can be an artifact of replay) counts as a
// skip whatever the command gave: the search tries a neighbour, and the
// step says why.
func TestLocateTaintedRunIsSkip(t *testing.T) {
	b := standard(t)
	g := b.graph()
	cands := Candidates(g)
	culprit := b.l("conf.read") // candidate 14: prefix index i passes from 15 on
	const why = "read of 0 bytes from a stand-in for /w/run.sh (recorded 24)"
	taintAt := func(idx ...int) func(r Request, n int) (Outcome, bool) {
		return func(r Request, _ int) (Outcome, bool) {
			for _, i := range idx {
				if r.Prefix == cands[i-1] {
					// the command "passed": a vacuous pass
					return Outcome{Verdict: Pass, Detail: "exit status 0", Taint: why}, true
				}
			}
			return Outcome{}, false
		}
	}
	tests := []struct {
		name   string
		taint  []int
		status Status
		steps  []string
	}{
		{"mid tainted: try above", []int{12}, Located,
			[]string{"0:fail", "24:pass", "12:skip", "13:fail", "18:pass", "15:pass", "14:fail"}},
		{"all between tainted: no culprit", []int{14, 15}, Inconclusive,
			[]string{"0:fail", "24:pass", "12:fail", "18:pass", "15:skip", "16:pass", "14:skip", "13:fail"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fake{g: g, culprit: culprit, verdict: taintAt(tt.taint...)}
			rep := locateChecked(t, b, g, f, tt.status, tt.steps, culprit)
			if tt.status == Inconclusive && rep.Culprit != nil {
				t.Errorf("culprit %+v from tainted runs", rep.Culprit)
			}
			tainted := 0
			for _, s := range rep.Steps {
				if s.Taint == "" {
					continue
				}
				tainted++
				if s.Verdict != Skip || s.Taint != why || s.Taken != Skip || s.Note != "tainted: "+why || s.Detail != "exit status 0" {
					t.Errorf("tainted step %+v: want verdict and taken skip, taint %q, note %q, the command's detail", s, why, "tainted: "+why)
				}
			}
			if tainted != len(tt.taint) {
				t.Errorf("%d tainted steps, want %d", tainted, len(tt.taint))
			}
		})
	}
}
