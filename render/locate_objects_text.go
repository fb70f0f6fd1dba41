package render

import (
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/envobj"
)

// objects writes the text report of the object search (Mechanism
// "materialized"): what it found, each cause with what differs, where the
// program met it and its fix, the validated fix, what no run could put in
// place, and every run.
func (t *textWriter) objects(r *LocateReport) {
	o := r.Objects
	switch o.Status {
	case envobj.Located:
		t.printf("located: %s (materialized; %s)\n", objectsCulprit(o), runsAndTime(r))
		t.objectCauses(o.Causes, "cause")
		if m := r.Message; m != "" {
			t.para(strings.ToUpper(m[:1]) + m[1:] + ".")
		}
		if f := o.Fix; f != nil {
			t.printf("\n%s\n", fixIntro(f))
			for _, s := range f.Steps {
				t.printf("  %s\n", Visible(s.String()))
			}
			if f.Note != "" {
				t.para("Note: " + f.Note + ".")
			}
		}
	case envobj.Unconfirmed:
		t.heading(r, "unconfirmed")
		t.objectCauses(o.Suspects, "suspect")
		t.para(objectsUnconfirmedAdvice)
		t.printf("\n  envbisect locate --repeat 5%s %s -- %s\n", r.flagsText(), r.tracePathOr(), r.commandOr())
	case envobj.NoFailure:
		t.heading(r, "no failure")
		t.para(noFailureAdvice)
		t.printf("\nWith more runs per step:\n  envbisect locate --repeat 5%s %s -- %s\n", r.flagsText(), r.tracePathOr(), r.commandOr())
	case envobj.NotRepeatable:
		t.heading(r, "not repeatable")
		t.para(notRepeatableAdvice)
	case envobj.Inconclusive:
		t.heading(r, "inconclusive")
		t.para(objectsInconclusiveAdvice)
	default:
		t.heading(r, strings.ReplaceAll(string(o.Status), "-", " "))
	}
	t.unplaced(o)
	t.warnings(r)
	if r.Isolation != "" {
		t.para("Runs: " + r.Isolation + ".")
	}
	t.objectSteps(o.Steps)
}

// objectCauses prints each cause (label "cause") or suspect: its name,
// what differs, its objects (for a group), the first call that met it,
// and a cause's fix (a suspect's is not validated, and not given).
func (t *textWriter) objectCauses(cs []envobj.ResultCause, what string) {
	for i := range cs {
		c := &cs[i]
		t.printf("\n")
		label := what
		if len(cs) > 1 {
			label = what + " " + strconv.Itoa(i+1)
		}
		t.printf("%-9s %s\n", label, Visible(c.Name))
		t.printf("differs   %s\n", Visible(c.Says))
		for j, p := range objectPaths(c) {
			l := "          "
			if j == 0 {
				l = "objects   "
			}
			t.printf("%s%s\n", l, Visible(p))
		}
		if m := metText(c); m != "" {
			t.printf("met       %s\n", Visible(m))
		}
		if ob := c.Observed; ob != nil {
			if ob.Seq != 0 && ob.Seq != c.FirstSeq {
				t.printf("differs   at call %d: %s\n", ob.Seq, Visible(ShortCall(ob.Call)))
			}
			if ob.Seq != 0 {
				t.printf("good      %s\n", Visible(ob.Good))
				t.printf("here      %s\n", Visible(ob.Here))
			}
			if ob.Explanation != "" {
				t.printf("why       %s\n", Visible(ob.Explanation))
			}
			if ob.Met != nil && ob.Met.Calls > 1 {
				t.printf("met by    %s\n", Visible(MetText(ob.Met)))
			}
		}
		if what != "cause" {
			continue
		}
		for j, s := range c.Fix {
			l := "          "
			if j == 0 {
				l = "fix       "
			}
			t.printf("%s%s\n", l, Visible(s.String()))
			for _, d := range s.Diff {
				t.printf("            %s\n", Visible(d))
			}
		}
	}
}

// unplaced lists the objects no run put in place.
func (t *textWriter) unplaced(o *envobj.Result) {
	if len(o.Unplaced) == 0 {
		return
	}
	t.para(unplacedIntro)
	for _, u := range o.Unplaced {
		t.printf("  %s\n", Visible(unplacedLine(u)))
	}
}

// objectSteps prints the object search's runs, one a line.
func (t *textWriter) objectSteps(steps []envobj.ResultStep) {
	if len(steps) == 0 {
		return
	}
	w := len("in place")
	for i := range steps {
		w = max(w, len(Visible(steps[i].InPlace)))
	}
	t.printf("\nstep  %-*s  verdict  seconds  detail\n", w, "in place")
	for i := range steps {
		s := &steps[i]
		t.printf("%4d  %-*s  %-7s  %7.2f  %s\n", s.Step, w, Visible(s.InPlace), s.Verdict, s.Seconds, Visible(objectsStepDetail(s, func(v string) string { return " -> " + v })))
	}
}

// fellBackObjects says, in a call-level report made because the object
// search could not make the command pass, what that search did; with
// verbose, its runs.
func (t *textWriter) fellBackObjects(r *LocateReport) {
	if !r.fellBack() {
		return
	}
	t.para(fellBackText(r.Objects))
	t.unplaced(r.Objects)
	if r.Verbose {
		t.objectSteps(r.Objects.Steps)
	}
}
