package bisect

import (
	"context"
	"errors"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// maxRuns is the budget with one run per step: the two ends and
// ceil(log2 m) bisection steps.
func maxRuns(m int) int { return 2 + bits.Len(uint(m-1)) }

// TestLocateFallsBackToEveryCall: when the run with nothing replayed
// shows no resource that differs (here every live result is the
// recorded one), the search runs over every replayable call by prefix,
// the thesis' bisection, and says why.
func TestLocateFallsBackToEveryCall(t *testing.T) {
	b := standard(t)
	g := b.graph()
	read := b.l("conf.read")
	f := &fake{g: g, culprit: read}
	rep, err := Locate(context.Background(), g, f, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != read {
		t.Fatalf("got %s, culprit %+v", rep.Status, rep.Culprit)
	}
	// The ends first, then bisection of the 24 candidates, of which call
	// 20 is the 15th: prefix index 12 (up to call 17) fails, 18 passes,
	// 15 passes, 13 fails, 14 fails.
	want := []string{"0:fail", "24:pass", "12:fail", "18:pass", "15:pass", "13:fail", "14:fail"}
	if got := verdicts(rep.Steps); !slices.Equal(got, want) {
		t.Errorf("steps %v, want %v", got, want)
	}
	if s := rep.Steps[1]; !s.All || s.Prefix != 31 || s.Replayed() != "all" {
		t.Errorf("all step: %+v", s)
	}
	if s := rep.Steps[2]; s.All || s.Prefix != 17 || s.Replayed() != "up to 17" || s.Taken != Fail {
		t.Errorf("step 3: %+v", s)
	}
	if sp := rep.Space; sp == nil || sp.Over != "all" || sp.Candidates != 24 ||
		!strings.Contains(sp.Fallback, "showed no start item or resource that differs here") {
		t.Errorf("space %+v", sp)
	}
}

func TestLocateEveryCulprit(t *testing.T) {
	traces := map[string]func(*testing.T) *tb{
		"standard": standard,
		"one file": func(t *testing.T) *tb {
			b := newTB(t)
			b.always(1)
			b.file("", "/etc/fig79.conf", "key=value\n")
			return b
		},
		"one call": func(t *testing.T) *tb {
			b := newTB(t)
			b.always(2)
			b.do("", "uname", 0, []uint64{0x10000}, trace.Mem{Arg: 0, Dir: trace.Out, Len: 390, Data: make([]byte, 390)})
			return b
		},
	}
	for name, mk := range traces {
		t.Run(name, func(t *testing.T) { locateEach(t, mk(t)) })
	}
}

// locateEach locates every candidate of b's trace in turn.
func locateEach(t *testing.T, b *tb) {
	g := b.graph()
	cands := Candidates(g)
	if len(cands) == 0 {
		t.Fatal("no candidates")
	}
	n := len(g.Calls())
	for _, culprit := range cands {
		f := &fake{g: g, culprit: culprit}
		rep, err := Locate(context.Background(), g, f, Options{Events: b.Events})
		if err != nil {
			t.Fatalf("culprit %d: %v", culprit, err)
		}
		if rep.Status != Located || rep.Culprit == nil || rep.Culprit.Seq != culprit {
			t.Fatalf("culprit %d: got %s %+v", culprit, rep.Status, rep.Culprit)
		}
		if allRuns(rep) != len(f.runs) || rep.Runs > maxRuns(len(cands)) || rep.Runs > bits.Len(uint(n-1))+3 || rep.ConfirmRuns > 2 {
			t.Errorf("culprit %d: %d runs + %d confirming (runner saw %d), budget %d + 2", culprit, rep.Runs, rep.ConfirmRuns,
				len(f.runs), maxRuns(len(cands)))
		}
		if rep.ExitCode() != 0 {
			t.Errorf("culprit %d: exit code %d", culprit, rep.ExitCode())
		}
	}
}

func TestLocateReport(t *testing.T) {
	b := standard(t)
	g := b.graph()
	read := b.l("conf.read")
	f := &fake{g: g, culprit: read, here: map[uint64]*trace.Call{read: changed(call(t, g, read), 10, 1, "key value\n")}}
	rep, err := Locate(context.Background(), g, f, Options{Events: b.Events, Header: &trace.Header{Command: []string{"fig79", "--serve"}}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != read {
		t.Fatalf("got %s, culprit %+v", rep.Status, rep.Culprit)
	}
	if rep.RecordedCalls != 31 || rep.ReplayableCalls != 24 || rep.Runs != len(rep.Steps) {
		t.Errorf("counts: %d recorded, %d replayable, %d runs, %d steps", rep.RecordedCalls, rep.ReplayableCalls, rep.Runs, len(rep.Steps))
	}
	// The run with nothing replayed shows one resource that differs, the
	// file: replaying it whole passes, and there is nothing to bisect.
	want := []string{"0:fail", "1:pass"}
	if got := verdicts(rep.Steps); !slices.Equal(got, want) {
		t.Errorf("steps %v, want %v", got, want)
	}
	if s := rep.Steps[1]; s.All || s.Prefix != 0 || s.Resources != 1 || s.Replayed() != "1 resource" {
		t.Errorf("pass end: %+v", s)
	}
	sp := rep.Space
	if sp == nil || sp.Over != "differing" || sp.Candidates != 1 || len(sp.Resources) != 1 ||
		sp.Resources[0].Title != "file /etc/fig79.conf" || sp.Resources[0].Differs != read || sp.Resources[0].First != read-2 {
		t.Errorf("space %+v", sp)
	}
	c := rep.Culprit
	if c.Who != "[1]" || c.Exe != "/usr/bin/fig79" || c.Syscall != "read" || c.Path != "/etc/fig79.conf" ||
		c.Resource != "file /etc/fig79.conf" || c.Call != `read(3, "key=value\n", 4096) = 10` {
		t.Errorf("culprit: %+v", c)
	}
	if c.Good.Ret == nil || *c.Good.Ret != 10 || c.Good.Errno != "" || c.Good.Data["buf"].Data != "key=value\n" ||
		c.Here.Missing || c.Here.Data["buf"].Data != "key value\n" {
		t.Errorf("results: good %+v, bad %+v", c.Good, c.Here)
	}
	d := c.DataDiff
	wantDiff := []string{"--- good", "+++ here", "@@ -1 +1 @@", "-key=value", "+key value"}
	if d == nil || !d.Text || !slices.Equal(d.Diff, wantDiff) || d.Buffer != "buf" || d.FirstDifference != 3 {
		t.Errorf("data diff: %+v", d)
	}
	gr := rep.Group
	if gr == nil || gr.Title != "file /etc/fig79.conf" || len(gr.Calls) != 4 || gr.Calls[2] != (GroupCall{Seq: read, Syscall: "read"}) {
		t.Errorf("group: %+v", gr)
	}
}

func TestLocateEnds(t *testing.T) {
	b := standard(t)
	g := b.graph()
	divergent := []Divergence{{Kind: "diverged", Proc: 1, Thread: 1, RecordedSeq: 7, Expected: "read", LiveCall: "openat", Text: "thread [1] at call 7: expected read, got openat"}}
	tests := []struct {
		name    string
		verdict func(r Request, n int) (Outcome, bool)
		status  Status
		steps   []string
		message string
	}{
		{"passes without replay", func(r Request, _ int) (Outcome, bool) {
			return Outcome{Verdict: Pass, Detail: "exit status 0"}, true
		}, NoFailure, []string{"0:pass"}, "passes here without replay: nothing to locate"},
		{"fails with everything replayed", func(r Request, _ int) (Outcome, bool) {
			return Outcome{Verdict: Fail, Detail: "exit status 1"}, true
		}, ReplayStillFails, []string{"0:fail", "24:fail"}, "still fails with every recorded call replayed"},
		{"fail end skipped twice", func(r Request, _ int) (Outcome, bool) {
			return Outcome{Verdict: Skip, Detail: "exit status 125"}, r.Prefix == 0
		}, Inconclusive, []string{"0:skip", "0:skip"}, "cannot tell whether the command fails here without replay"},
		{"pass end skipped twice", func(r Request, _ int) (Outcome, bool) {
			return Outcome{Verdict: Skip, Detail: "exit status 125"}, r.Prefix == All
		}, Inconclusive, []string{"0:fail", "24:skip", "24:skip"}, "passes with every recorded call replayed"},
		{"diverged run at the pass end fails again", func(r Request, _ int) (Outcome, bool) {
			return Outcome{Verdict: Fail, Detail: "exit status 1", Divergences: divergent, Diverged: true}, r.Prefix == All
		}, ReplayStillFails, []string{"0:fail", "24:fail", "24:fail"}, "still fails"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fake{g: g, culprit: b.l("conf.read"), verdict: tt.verdict}
			rep, err := Locate(context.Background(), g, f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Status != tt.status || rep.Culprit != nil || rep.Group != nil || rep.ExitCode() != 3 {
				t.Errorf("status %s, culprit %+v, exit %d", rep.Status, rep.Culprit, rep.ExitCode())
			}
			if got := verdicts(rep.Steps); !slices.Equal(got, tt.steps) {
				t.Errorf("steps %v, want %v", got, tt.steps)
			}
			if !strings.Contains(rep.Message, tt.message) {
				t.Errorf("message %q, want %q in it", rep.Message, tt.message)
			}
			if tt.status == ReplayStillFails && strings.Contains(tt.name, "diverged") && !slices.Equal(rep.Divergences, divergent) {
				t.Errorf("divergences %v", rep.Divergences)
			}
		})
	}
}

func TestLocateEndSkippedOnce(t *testing.T) {
	b := standard(t)
	g := b.graph()
	f := &fake{g: g, culprit: b.l("conf.read"), verdict: func(r Request, n int) (Outcome, bool) {
		return Outcome{Verdict: Skip, Detail: "exit status 125"}, n == 1 && (r.Prefix == 0 || r.Prefix == All)
	}}
	rep, err := Locate(context.Background(), g, f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != b.l("conf.read") {
		t.Fatalf("got %s %+v", rep.Status, rep.Culprit)
	}
	want := []string{"0:skip", "0:fail", "24:skip", "24:pass"}
	if got := verdicts(rep.Steps)[:4]; !slices.Equal(got, want) {
		t.Errorf("steps %v, want %v first", got, want)
	}
	if rep.Steps[0].Step != 1 || rep.Steps[1].Step != 2 || rep.Steps[0].Taken != Skip {
		t.Errorf("steps %+v", rep.Steps[:2])
	}
}

func TestLocateNoCandidates(t *testing.T) {
	b := newTB(t)
	b.always(3)
	g := b.graph()
	if c := Candidates(g); len(c) != 0 {
		t.Fatalf("candidates %v", c)
	}
	f := &fake{g: g, culprit: 1}
	f.verdict = func(Request, int) (Outcome, bool) { return Outcome{Verdict: Fail, Detail: "exit status 2"}, true }
	rep, err := Locate(context.Background(), g, f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != ReplayStillFails || rep.Runs != 1 || !strings.Contains(rep.Message, "no call that replay could change") {
		t.Errorf("got %s after %d runs: %s", rep.Status, rep.Runs, rep.Message)
	}
	f.verdict = func(Request, int) (Outcome, bool) { return Outcome{Verdict: Pass}, true }
	if rep, err = Locate(context.Background(), g, f, Options{}); err != nil || rep.Status != NoFailure {
		t.Errorf("passing: %v %v", rep, err)
	}
}

func TestLocateSkips(t *testing.T) {
	b := standard(t)
	g := b.graph()
	cands := Candidates(g)
	culprit := b.l("conf.read") // candidate 14: prefix index i passes from 15 on
	skipAt := func(idx ...int) func(r Request, n int) (Outcome, bool) {
		return func(r Request, _ int) (Outcome, bool) {
			for _, i := range idx {
				if i > 0 && i < len(cands) && r.Prefix == cands[i-1] {
					return Outcome{Verdict: Skip, Detail: "exit status 125"}, true
				}
			}
			return Outcome{}, false
		}
	}
	tests := []struct {
		name       string
		skip       []int
		status     Status
		steps      []string
		candidates []uint64
	}{
		{"mid skipped: try above", []int{12}, Located,
			[]string{"0:fail", "24:pass", "12:skip", "13:fail", "18:pass", "15:pass", "14:fail"}, nil},
		{"mid and above skipped: try below", []int{12, 13}, Located,
			[]string{"0:fail", "24:pass", "12:skip", "13:skip", "11:fail", "17:pass", "14:fail", "15:pass"}, nil},
		{"all between skipped", []int{14, 15}, Inconclusive,
			[]string{"0:fail", "24:pass", "12:fail", "18:pass", "15:skip", "16:pass", "14:skip", "13:fail"},
			[]uint64{cands[13], cands[14], cands[15]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fake{g: g, culprit: culprit, verdict: skipAt(tt.skip...)}
			rep := locateChecked(t, b, g, f, tt.status, tt.steps, culprit)
			if !slices.Equal(rep.Candidates, tt.candidates) {
				t.Errorf("candidates %v, want %v", rep.Candidates, tt.candidates)
			}
			if tt.status == Inconclusive && (len(rep.CandidateLines) != len(tt.candidates) || rep.Culprit != nil) {
				t.Errorf("candidate lines %q, culprit %+v", rep.CandidateLines, rep.Culprit)
			}
		})
	}
}

func TestLocateDivergences(t *testing.T) {
	b := standard(t)
	g := b.graph()
	cands := Candidates(g)
	culprit := b.l("conf.read")
	div := []Divergence{{Kind: "extra", Proc: 1, Thread: 1, RecordedSeq: 16, Expected: "read", LiveCall: "openat", Text: "thread [1] at call 16: expected read, got openat"}}
	// The run at index 12 diverged and passed, wrongly; what its re-run
	// gives decides.
	at12 := func(again Verdict) func(r Request, n int) (Outcome, bool) {
		return func(r Request, n int) (Outcome, bool) {
			if r.Prefix != cands[11] {
				return Outcome{}, false
			}
			if n == 1 {
				return Outcome{Verdict: Pass, Detail: "exit status 0", Divergences: div, Diverged: true}, true
			}
			return Outcome{Verdict: again, Detail: "exit status 1"}, true
		}
	}
	tests := []struct {
		name  string
		again Verdict
		steps []string
		note  string
	}{
		{"re-run disagrees: skip", Fail, []string{"0:fail", "24:pass", "12:pass", "12:fail", "13:fail", "18:pass", "15:pass", "14:fail"},
			"diverged, and a re-run gave fail"},
		{"re-run agrees: taken", Pass, []string{"0:fail", "24:pass", "12:pass", "12:pass", "6:fail", "9:fail", "10:fail", "11:fail"},
			"diverged; a re-run agreed"},
	}
	// Extra calls that realigned are reported but cost no re-run.
	t.Run("extra calls only: no re-run", func(t *testing.T) {
		f := &fake{g: g, culprit: culprit, verdict: func(r Request, n int) (Outcome, bool) {
			if r.Prefix != cands[11] {
				return Outcome{}, false
			}
			return Outcome{Verdict: Fail, Detail: "exit status 1", Divergences: div}, true
		}}
		rep, err := Locate(context.Background(), g, f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := verdicts(rep.Steps), []string{"0:fail", "24:pass", "12:fail", "18:pass", "15:pass", "13:fail", "14:fail"}; !slices.Equal(got, want) {
			t.Errorf("steps %v, want %v", got, want)
		}
		if !slices.Equal(rep.Steps[2].Divergences, div) {
			t.Errorf("step 3's divergences %v, want %v reported", rep.Steps[2].Divergences, div)
		}
	})
	// The run that replays nothing executes every call: its divergence
	// (the failing program going its own way) costs no re-run.
	t.Run("fail end diverged: no re-run", func(t *testing.T) {
		diverged := []Divergence{{Kind: "diverged", Proc: 1, Thread: 1, RecordedSeq: 16, Expected: "read", LiveCall: "write", Text: "thread [1] at call 16: expected read, got write"}}
		f := &fake{g: g, culprit: culprit, verdict: func(r Request, n int) (Outcome, bool) {
			if r.Prefix != 0 {
				return Outcome{}, false
			}
			return Outcome{Verdict: Fail, Detail: "exit status 1", Divergences: diverged, Diverged: true}, true
		}}
		rep, err := Locate(context.Background(), g, f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := verdicts(rep.Steps); got[0] != "0:fail" || (len(got) > 1 && got[1] == "0:fail") || rep.Steps[0].Note != "" {
			t.Errorf("steps %v: the run with nothing replayed was re-run", got)
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fake{g: g, culprit: culprit, verdict: at12(tt.again)}
			rep, err := Locate(context.Background(), g, f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := verdicts(rep.Steps); !slices.Equal(got, tt.steps) {
				t.Errorf("steps %v, want %v", got, tt.steps)
			}
			s := rep.Steps[3]
			if s.Note != tt.note || rep.Steps[2].Note != "" || rep.Steps[2].Taken != 0 || !slices.Equal(rep.Steps[2].Divergences, div) {
				t.Errorf("runs 3, 4: %+v, %+v", rep.Steps[2], s)
			}
			if tt.again == Fail && (rep.Status != Located || rep.Culprit.Seq != culprit) {
				t.Errorf("got %s %+v", rep.Status, rep.Culprit)
			}
			if tt.again == Pass && (rep.Status != Unconfirmed || rep.Culprit != nil || rep.Suspect == nil || rep.Suspect.Seq != cands[11]) {
				// A consistent wrong verdict misleads the search (that is
				// what Repeat is for), but the call it ends at gave here
				// what it gave in the recording: it is not named.
				t.Errorf("got %s, culprit %+v, suspect %+v; want unconfirmed at call %d", rep.Status, rep.Culprit, rep.Suspect, cands[11])
			}
		})
	}
}

func TestLocateRepeat(t *testing.T) {
	b := standard(t)
	g := b.graph()
	cands := Candidates(g)
	culprit := b.l("conf.read")
	// The first run of every prefix index in the search gives the wrong
	// verdict; with Repeat 3 the majority is right.
	f := &fake{g: g, culprit: culprit}
	f.verdict = func(r Request, n int) (Outcome, bool) {
		if n != 1 || r.Prefix == 0 || r.Prefix == All {
			return Outcome{}, false
		}
		v := Fail
		if r.Asks(g)(culprit) {
			v = Pass
		}
		return Outcome{Verdict: 3 - v, Detail: "flaky"}, true
	}
	rep, err := Locate(context.Background(), g, f, Options{Repeat: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != culprit {
		t.Fatalf("got %s %+v", rep.Status, rep.Culprit)
	}
	if rep.Runs != 3*7 {
		t.Errorf("%d runs, want 21", rep.Runs)
	}
	if s := rep.Steps[8]; s.Step != 3 || s.Taken != Fail || s.Note != "2 of 3 runs" {
		t.Errorf("last run of step 3: %+v", s)
	}
	if s := rep.Steps[2]; s.Step != 1 || s.Taken != Fail || s.Note != "3 of 3 runs" {
		t.Errorf("last run of step 1: %+v", s)
	}

	// Repeat 2: a tie gets one more run.
	f = &fake{g: g, culprit: culprit}
	f.verdict = func(r Request, n int) (Outcome, bool) {
		return Outcome{Verdict: Skip, Detail: "exit status 125"}, n == 1 && r.Prefix == cands[11]
	}
	rep, err = Locate(context.Background(), g, f, Options{Repeat: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != culprit {
		t.Fatalf("got %s %+v", rep.Status, rep.Culprit)
	}
	if got := verdicts(rep.Steps[4:7]); !slices.Equal(got, []string{"12:skip", "12:fail", "12:fail"}) || rep.Steps[6].Note != "2 of 3 runs" {
		t.Errorf("tie: %v %+v", got, rep.Steps[6])
	}

	// A tie after the extra run is a skip.
	f = &fake{g: g, culprit: culprit}
	f.verdict = func(r Request, n int) (Outcome, bool) {
		if r.Prefix != cands[11] {
			return Outcome{}, false
		}
		return Outcome{Verdict: []Verdict{Pass, Fail, Skip}[n-1], Detail: "flaky"}, true
	}
	rep, err = Locate(context.Background(), g, f, Options{Repeat: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s := rep.Steps[6]; s.Taken != Skip || s.Note != "runs disagree" || rep.Status != Located || rep.Culprit.Seq != culprit {
		t.Errorf("tie twice: %+v; %s %+v", s, rep.Status, rep.Culprit)
	}
}

func TestLocateLiveMissing(t *testing.T) {
	b := standard(t)
	g := b.graph()
	read := b.l("conf.read")
	f := &fake{g: g, culprit: read, here: map[uint64]*trace.Call{read: nil}}
	rep, err := Locate(context.Background(), g, f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := rep.Culprit; c == nil || !c.Here.Missing || c.DataDiff != nil || c.Exe != "" {
		t.Fatalf("culprit %+v", c)
	}
}

func TestLocateErrors(t *testing.T) {
	b := standard(t)
	g := b.graph()
	cands := Candidates(g)
	boom := errors.New("tracer died")
	f := &fake{g: g, culprit: b.l("conf.read")}
	f.verdict = func(r Request, _ int) (Outcome, bool) { return Outcome{}, false }
	failing := RunnerFunc(func(ctx context.Context, r Request) (Outcome, error) {
		if r.Prefix == cands[11] {
			return Outcome{}, boom
		}
		return f.Run(ctx, r)
	})
	rep, err := Locate(context.Background(), g, failing, Options{})
	want := "run with calls up to 17 replayed: tracer died"
	if rep != nil || !errors.Is(err, boom) || err.Error() != want {
		t.Errorf("got %v, %v; want %q", rep, err, want)
	}

	for _, tt := range []struct {
		prefix uint64
		want   string
	}{{0, "run with no call replayed: "}, {All, "run with every call replayed: "}} {
		r := RunnerFunc(func(ctx context.Context, r Request) (Outcome, error) {
			if r.Prefix == tt.prefix {
				return Outcome{}, boom
			}
			return f.Run(ctx, r)
		})
		if _, err := Locate(context.Background(), g, r, Options{}); err == nil || err.Error() != tt.want+"tracer died" {
			t.Errorf("prefix %d: %v", tt.prefix, err)
		}
	}

	noVerdict := RunnerFunc(func(context.Context, Request) (Outcome, error) { return Outcome{Detail: "?"}, nil })
	if _, err := Locate(context.Background(), g, noVerdict, Options{}); err == nil || !strings.Contains(err.Error(), "no verdict") {
		t.Errorf("no verdict: %v", err)
	}
	if _, err := Locate(context.Background(), nil, f, Options{}); err == nil {
		t.Error("nil graph: no error")
	}
}

func TestLocateCancel(t *testing.T) {
	b := standard(t)
	g := b.graph()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := &fake{g: g, culprit: b.l("conf.read")}
	runs := 0
	r := RunnerFunc(func(ctx context.Context, r Request) (Outcome, error) {
		runs++
		if runs == 3 {
			cancel() // the run is cut short, as a Ctrl-C would
		}
		return f.Run(ctx, r)
	})
	rep, err := Locate(ctx, g, r, Options{})
	if rep != nil || !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "run with calls up to 17 replayed: ") {
		t.Errorf("got %v, %v", rep, err)
	}
	if runs != 3 {
		t.Errorf("%d runs after cancel", runs)
	}
	if _, err := Locate(ctx, g, f, Options{}); !errors.Is(err, context.Canceled) || len(f.runs) != 2 {
		t.Errorf("cancelled before: %v, %d runs", err, len(f.runs))
	}
}

func TestLocateProgress(t *testing.T) {
	b := standard(t)
	g := b.graph()
	f := &fake{g: g, culprit: b.l("conf.read")}
	var got []Progress
	rep, err := Locate(context.Background(), g, f, Options{Progress: func(p Progress) { got = append(got, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2*allRuns(rep) {
		t.Fatalf("%d progress calls for %d runs", len(got), allRuns(rep))
	}
	for i, p := range got {
		run := i/2 + 1
		if p.Run != run || p.Done != (i%2 == 1) || p.Candidates != 24 || p.Steps < p.Step || p.Steps > maxRuns(24)+2 {
			t.Errorf("progress %d: %+v", i, p)
		}
		if p.Done && p.Outcome.Verdict != rep.Steps[run-1].Verdict {
			t.Errorf("progress %d: verdict %s, step says %s", i, p.Outcome.Verdict, rep.Steps[run-1].Verdict)
		}
	}
	if got[0].Request.Prefix != 0 || got[2].Request.Prefix != All || got[2].Index != 24 {
		t.Errorf("first runs: %+v %+v", got[0], got[2])
	}
}

func TestPick(t *testing.T) {
	tests := []struct {
		lo, hi  int
		skipped []int
		want    int
		ok      bool
	}{
		{0, 10, nil, 5, true},
		{0, 10, []int{5}, 6, true},
		{0, 10, []int{5, 6}, 4, true},
		{0, 10, []int{4, 5, 6}, 7, true},
		{0, 3, []int{1}, 2, true},
		{0, 3, []int{1, 2}, 0, false},
		{4, 5, nil, 0, false},
		{0, 10, []int{1, 2, 3, 4, 5, 6, 7, 8}, 9, true},
	}
	for _, tt := range tests {
		sk := map[int]bool{}
		for _, i := range tt.skipped {
			sk[i] = true
		}
		got, ok := pick(tt.lo, tt.hi, sk)
		if got != tt.want || ok != tt.ok {
			t.Errorf("pick(%d, %d, %v) = %d, %v; want %d, %v", tt.lo, tt.hi, tt.skipped, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCandidates(t *testing.T) {
	b := newTB(t)
	b.always(1)
	// A library mapped from its fd: mmap always executes and needs the
	// open to have happened, so the open executes and is overwritten when
	// replayed; it is a candidate all the same.
	b.do("open", "openat", 3, []uint64{atCWD, 0x10000, 0, 0},
		trace.Mem{Arg: 1, Dir: trace.In, Len: 15, Data: []byte("/lib/libx.so.1\x00")}).Path = "/lib/libx.so.1"
	b.do("mmap", "mmap", 0x7f0000000000, []uint64{0, 4096, 1, 2, 3, 0}).Path = "/lib/libx.so.1"
	b.do("close", "close", 0, []uint64{3}).Path = "/lib/libx.so.1"
	g := b.graph()
	want := []uint64{b.l("open"), b.l("close")}
	if got := Candidates(g); !slices.Equal(got, want) {
		t.Errorf("candidates %v, want %v", got, want)
	}
}
