package render

import (
	"fmt"
	"strings"

	"github.com/envbisect/envbisect/envobj"
)

// objectsLaidOut says whether the Markdown of the object search lays out
// the member key of its result ("objects") itself; the others are
// listed generically.
func objectsLaidOut(key string) bool {
	switch key {
	case "status", "message", "causes", "fix", "suspects", "disagreeing", "candidates", "objects", "start_items",
		"unplaced", "runs", "confirm_runs", "steps", "seconds", "warnings":
		return true
	}
	return false
}

// objectsMarkdown writes the object search's report (Mechanism
// "materialized") as Markdown: a heading with the status, the summary
// line, each cause with what differs, where the program met it and its
// fix, the validated fix as a shell block, what no run could put in
// place, members laid out by nobody, and the runs in a collapsed table.
// fields are the report's JSON members.
func (m *mdWriter) objectsMarkdown(r *LocateReport, fields []jsonField) {
	o := r.Objects
	m.printf("### envbisect locate: %s\n\n", mdText(string(r.Status)))
	var parts []string
	if len(r.Command) > 0 {
		parts = append(parts, "**Command** "+mdCodeText(r.commandOr()))
	}
	label := "**Cause** "
	if o.Status != envobj.Located {
		label = "**Cause, " + mdText(string(o.Status)) + "** "
	}
	parts = append(parts, label+mdText(objectsCulprit(o))+" (materialized)", "**Runs** "+mdText(runsAndTime(r)))
	m.printf("%s\n", strings.Join(parts, " · "))
	if msg := r.Message; msg != "" {
		m.para(strings.ToUpper(msg[:1]) + msg[1:] + ".")
	}
	causes := o.Causes
	if o.Status == envobj.Unconfirmed {
		causes = o.Suspects
	}
	for i := range causes {
		m.objectCause(&causes[i], i, len(causes), o.Status)
	}
	if f := o.Fix; f != nil {
		m.para(fixIntro(f))
		lines := make([]string, len(f.Steps))
		for i, s := range f.Steps {
			lines[i] = s.String()
			if s.Command == "" {
				lines[i] = "# " + lines[i] // words, not a command: a comment in the block
			}
		}
		m.printf("\n%s", mdFence("sh", lines))
		if f.Note != "" {
			m.para("Note: " + f.Note + ".")
		}
	}
	switch o.Status {
	case envobj.Located:
	case envobj.Unconfirmed:
		m.para(objectsUnconfirmedAdvice)
		m.command("With more runs per step:", repeatCommand(r))
	case envobj.NoFailure:
		m.para(noFailureAdvice)
		m.command("With more runs per step:", repeatCommand(r))
	case envobj.NotRepeatable:
		m.para(notRepeatableAdvice)
	case envobj.Inconclusive:
		m.para(objectsInconclusiveAdvice)
	}
	m.unplaced(o)
	if len(r.Warnings) > 0 {
		m.list("The runs warned:", r.Warnings, len(r.Warnings))
	}
	if r.Isolation != "" {
		m.para("Runs: " + r.Isolation + ".")
	}
	more := extras(fields, func(k string) bool { return reportLaidOut(k) || k == "warnings" })
	if raw := jsonMember(fields, "objects"); raw != nil {
		if of, err := jsonFields(raw); err == nil {
			more = append(more, extras(of, objectsLaidOut)...)
		}
	}
	if len(more) > 0 {
		m.printf("\n#### More in the report\n\n")
		m.fields(more, "")
	}
	m.objectSteps(o.Steps)
}

// objectCause writes one cause: a heading naming it, what differs, its
// objects, the first call that met it, its fix (with a restored file's
// diff).
func (m *mdWriter) objectCause(c *envobj.ResultCause, i, n int, status envobj.Status) {
	heading := "Cause"
	if n > 1 {
		heading = fmt.Sprintf("Cause %d of %d", i+1, n)
	}
	if status != envobj.Located {
		heading = "Suspect" + strings.TrimPrefix(heading, "Cause") + ", " + string(status)
	}
	m.printf("\n#### %s: %s\n\n", heading, mdText(c.Name))
	m.printf("- **Differs** %s\n", mdText(c.Says))
	if ps := objectPaths(c); len(ps) > 0 {
		m.printf("- **Objects** (%d)\n", len(c.Objects))
		for _, p := range ps {
			if strings.HasPrefix(p, "... ") {
				m.printf("  - …%s\n", mdText(strings.TrimPrefix(p, "...")))
				continue
			}
			m.printf("  - %s\n", mdCodeText(p))
		}
	}
	if c.FirstSeq != 0 {
		met := fmt.Sprintf("call %d", c.FirstSeq)
		if c.FirstCall != "" {
			met += ": " + mdCodeText(c.FirstCall)
		}
		m.printf("- **First met** %s\n", met)
	}
	if ob := c.Observed; ob != nil {
		if ob.Seq != 0 && ob.Seq != c.FirstSeq {
			m.printf("- **Differs at** call %d: %s\n", ob.Seq, mdCodeText(ob.Call))
		}
		if ob.Seq != 0 {
			m.printf("- **Good run** %s; **here** %s\n", mdCodeText(ob.Good), mdCodeText(ob.Here))
		}
		if ob.Explanation != "" {
			m.printf("- **Why** %s\n", mdText(ob.Explanation))
		}
		if ob.Met != nil && ob.Met.Calls > 1 {
			m.printf("- **Met by** %s\n", mdText(MetText(ob.Met)))
		}
	}
	if status != envobj.Located {
		return // a suspect's fix is not validated, and not given
	}
	for _, s := range c.Fix {
		if s.Command != "" {
			m.printf("- **Fix** %s\n", mdCodeText(s.Command))
		} else {
			m.printf("- **Fix** %s\n", mdText(s.Text))
		}
		if len(s.Diff) > 0 {
			m.printf("\n%s\n", indentLines(mdFence("diff", s.Diff), "  "))
		}
	}
}

// unplaced lists the objects no run put in place.
func (m *mdWriter) unplaced(o *envobj.Result) {
	lines := make([]string, len(o.Unplaced))
	for i, u := range o.Unplaced {
		lines[i] = unplacedLine(u)
	}
	m.list(unplacedIntro, lines, len(lines))
}

// objectSteps writes the object search's runs as a table in a collapsed
// <details> block.
func (m *mdWriter) objectSteps(steps []envobj.ResultStep) {
	if len(steps) == 0 {
		return
	}
	m.printf("\n<details>\n<summary>%s</summary>\n\n", htmlText(fmt.Sprintf("Steps: %s", count(len(steps), "run", "runs"))))
	m.printf("| step | in place | verdict | seconds | detail |\n|---:|---|---|---:|---|\n")
	for i := range steps {
		s := &steps[i]
		detail := mdText(objectsStepDetail(s, func(string) string { return "" }))
		if s.Taken != "" && s.Taken != s.Verdict {
			detail += " → taken as " + mdText(s.Taken)
		}
		m.printf("| %d | %s | %s | %.2f | %s |\n", s.Step, mdText(s.InPlace), mdText(s.Verdict), s.Seconds, detail)
	}
	m.printf("\n</details>\n")
}

// fellBackObjects says, in a call-level report made because the object
// search could not make the command pass, what that search did.
func (m *mdWriter) fellBackObjects(r *LocateReport) {
	if !r.fellBack() {
		return
	}
	m.para(fellBackText(r.Objects))
	m.unplaced(r.Objects)
}
