package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/envbisect/envbisect/internal/scenarios"
)

// measuredCase is one case of the table: a scenario or a thesis case
// study, with how to record and locate it.
type measuredCase struct {
	name string
	kind string // "scenario" or "case study"
	// study records the case in dir (empty) and locates it with the
	// envbisect binary given; the row holds what came out.
	study func(ctx context.Context, root, dir, envbisect string) *row
	// thesis is set for a case study (its packages may need installing).
	thesis *scenarios.Case
}

// allCases are the scenarios in the order, then the thesis' case
// studies in the thesis' order.
func allCases() []measuredCase {
	var out []measuredCase
	for _, s := range scenarios.All() {
		out = append(out, measuredCase{name: s.Name, kind: "scenario", study: func(ctx context.Context, root, dir, bin string) *row {
			return studyScenario(ctx, s, root, dir, bin)
		}})
	}
	for _, c := range scenarios.Thesis() {
		out = append(out, measuredCase{name: c.Name, kind: "case study", thesis: &c, study: func(ctx context.Context, root, dir, bin string) *row {
			return studyThesis(ctx, c, root, dir, bin)
		}})
	}
	return out
}

// pick keeps the cases whose name re matches.
func pick(cases []measuredCase, re *regexp.Regexp) []measuredCase {
	var out []measuredCase
	for _, c := range cases {
		if re.MatchString(c.name) {
			out = append(out, c)
		}
	}
	return out
}

// measureAll studies the cases one after the other (their runs judge
// daemons by timing; side by side they would slow each other down) and
// returns a row for each. The error is the context's, or the installation
// of the case studies' packages failing.
func measureAll(ctx context.Context, cases []measuredCase, o options, progress io.Writer) ([]*row, error) {
	var thesis []scenarios.Case
	for _, c := range cases {
		if c.thesis != nil {
			thesis = append(thesis, *c.thesis)
		}
	}
	if err := scenarios.Install(ctx, thesis...); err != nil {
		return nil, err
	}
	var rows []*row
	for _, c := range cases {
		if c.thesis != nil {
			if m := c.thesis.Missing(); len(m) > 0 {
				rows = append(rows, &row{name: c.name, kind: c.kind, err: fmt.Errorf("missing %s", strings.Join(m, ", "))})
				continue
			}
		}
		dir, err := os.MkdirTemp("", "envbisect-runs-"+c.name+"-")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(progress, "locateruns: %s: record, then locate ...\n", c.name)
		r := c.study(ctx, o.root, dir, o.envbisect)
		r.name, r.kind = c.name, c.kind
		rows = append(rows, r)
		switch {
		case r.err != nil:
			fmt.Fprintf(progress, "locateruns: %s: could not run: %s\n", c.name, firstLine(r.err.Error()))
		default:
			fmt.Fprintf(progress, "locateruns: %s: %s in %d runs (+%d repeat), %.1f s\n", c.name, r.rep.Status, r.rep.Runs, r.rep.RepeatRuns, r.locate.Seconds())
		}
		if o.keep {
			fmt.Fprintf(progress, "locateruns: %s: kept %s\n", c.name, dir)
		} else {
			os.RemoveAll(dir)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// recordTimeout bounds a scenario's recording, as its test does.
const recordTimeout = time.Minute

// studyScenario records s in its good environment and locates it in its
// bad one as test/e2e/scenarios does (one round: the test repeats the
// timing-dependent case Repeats() times).
func studyScenario(ctx context.Context, s scenarios.Scenario, root, dir, bin string) *row {
	r := &row{}
	w, err := s.Prepare(root, dir)
	if err != nil {
		r.err = err
		return r
	}
	r.shorten = shortener(w)
	trace := w.Trace("good.envb")
	rec := scenarios.Run(ctx, recordTimeout, s.Environ(scenarios.Good), s.RecordArgv(w, bin, trace)...)
	if rec.Err != nil || rec.Code != 0 {
		r.err = fmt.Errorf("the recording in the good environment must pass:\n%s", rec)
		return r
	}
	tr, err := scenarios.ReadTrace(ctx, bin, trace)
	if err != nil {
		r.err = err
		return r
	}
	loc, err := s.RunIn(ctx, scenarios.Bad, w, s.LocateTimeout(), s.LocateArgv(w, bin, trace, "--json"))
	if err == nil && loc.Err != nil {
		err = fmt.Errorf("locate did not finish:\n%s", loc)
	}
	if err != nil {
		r.err = err
		return r
	}
	if r.rep, err = scenarios.ParseLocate(loc.Stdout); err != nil {
		r.err = fmt.Errorf("%w\n%s", err, loc)
		return r
	}
	r.locate = loc.Elapsed
	r.notes = scenarioNotes(&s, w, tr, r.rep, loc.Code)
	return r
}

// scenarioNotes says where locate's answer is not what the scenario's test
// wants: the exit status, the status, and the culprit (the first recorded
// call Want.Culprit matches, or the start item Want.Start).
func scenarioNotes(s *scenarios.Scenario, w *scenarios.Work, tr *scenarios.Trace, rep *scenarios.LocateReport, code int) []string {
	var notes []string
	note := func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }
	if code != s.Want.ExitCode {
		note("locate exited %d, want %d", code, s.Want.ExitCode)
	}
	if rep.Status != s.Want.Status {
		note("status %q (%s), want %q", rep.Status, rep.Message, s.Want.Status)
	}
	got := rep.Culprit
	switch {
	case s.Want.Start != "":
		if got == nil || got.Start == nil || got.Start.Kind+" "+got.Start.Name != s.Want.Start {
			note("culprit %s, want the start item %s", culpritText(rep, nil), s.Want.Start)
		}
	case s.Want.Culprit != nil:
		want, ok := s.Want.Culprit.Find(w, tr)
		switch {
		case !ok:
			note("the recorded trace has no %s", s.Want.Culprit.Describe(w))
		case got == nil || got.Seq != want.Seq || got.Syscall != want.Syscall:
			note("culprit %s, want %v", culpritText(rep, nil), want)
		}
	case got != nil:
		note("culprit %s, want none", culpritText(rep, nil))
	}
	return notes
}

// studyThesis records and locates a case study with Case.Study, as
// test/e2e/casestudies and tools/casestudies do; the notes are the
// outcome's Problems (the culprit, the run bound, the time and trace-size
// targets, leftover daemons).
func studyThesis(ctx context.Context, c scenarios.Case, root, dir, bin string) *row {
	r := &row{}
	o, err := c.Study(ctx, root, dir, bin)
	if o != nil && o.Work != nil {
		r.shorten = shortener(o.Work)
	}
	if err != nil {
		r.err = err
		return r
	}
	r.rep, r.locate, r.notes = o.Report, o.Locate.Elapsed, o.Problems()
	return r
}

// shortener replaces what differs from run to run in a culprit's text: the
// work directory (WORK) and the port picked for the case (PORT).
func shortener(w *scenarios.Work) *strings.Replacer {
	pairs := []string{w.Dir + "/", "WORK/"}
	if w.Port != 0 {
		pairs = append(pairs, fmt.Sprintf(":%d", w.Port), ":PORT")
	}
	return strings.NewReplacer(pairs...)
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
