package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteMarkdown writes the report as GitHub-flavoured Markdown, for a CI
// job's summary ($GITHUB_STEP_SUMMARY): a heading with the status, a
// summary line (the command, the culprit, the runs), each cause with its
// results here and in the recording and its diff in a fenced diff block,
// what the text form says besides, and the steps in a collapsed table.
// Paths and data are escaped (markdown.go). It is written over the
// report's JSON form too: members it does not lay out itself, of the
// report and of each cause, are listed generically (markdown_fields.go),
// and causes are read from the JSON's "causes" when it has them.
func (r *LocateReport) WriteMarkdown(w io.Writer) error {
	raw, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("markdown report: %w", err)
	}
	return writeMarkdown(w, r, raw)
}

// mdCause is one cause as the Markdown lays it out: the culprit and its
// JSON members, for those it does not lay out itself.
type mdCause struct {
	Culprit *Culprit
	Fields  []jsonField
}

// reportLaidOut says whether WriteMarkdown lays out the report member
// key itself.
func reportLaidOut(key string) bool {
	switch key {
	case "status", "message", "command", "culprit", "causes", "suspect", "group", "candidates", "divergences", "runs", "repeat_runs",
		"recorded_calls", "replayable_calls", "start_items", "space", "steps", "seconds", "lost", "not_served", "unapplied",
		"cause", "isolation", "disagreeing", "roots":
		return true
	case "confirm_runs", "cause_runs":
		return true // counted by runsAndTime, with the runs of the search
	case "schema_version":
		return true // for programs
	case "mechanism", "objects":
		return true // the object search's (locate_objects_markdown.go)
	}
	return false
}

// stepLaidOut says whether the steps table lays out the step member key
// itself; the others are added to the step's detail.
func stepLaidOut(key string) bool {
	switch key {
	case "step", "round", "index", "prefix", "all", "start", "resources", "except", "verdict", "detail", "seconds",
		"divergences", "taint", "taken", "note":
		return true
	}
	return false
}

// culpritLaidOut says whether WriteMarkdown lays out the culprit member
// key itself (seq, proc, thread and who are in the call line).
func culpritLaidOut(key string) bool {
	switch key {
	case "seq", "proc", "thread", "who", "exe", "syscall", "call", "path", "resource", "good", "here", "start", "data_diff",
		"content", "dns", "image", "differs", "flip":
		return true
	}
	return false
}

// extras are the members of fields that laidOut does not name.
func extras(fields []jsonField, laidOut func(string) bool) []jsonField {
	var out []jsonField
	for _, f := range fields {
		if !laidOut(f.Key) {
			out = append(out, f)
		}
	}
	return out
}

func writeMarkdown(w io.Writer, r *LocateReport, raw []byte) error {
	fields, err := jsonFields(raw)
	if err != nil {
		return err
	}
	if r.materialized() {
		m := &mdWriter{w: w}
		m.objectsMarkdown(r, fields)
		return m.err
	}
	causes, err := reportCauses(fields)
	if err != nil {
		return err
	}
	m := &mdWriter{w: w}
	m.printf("### envbisect locate: %s\n\n", mdText(string(r.Status)))
	m.summary(r, causes)
	if msg := r.Message; msg != "" {
		m.para(strings.ToUpper(msg[:1]) + msg[1:] + ".")
	}
	m.roots(r) // a root first, then the causes that met it
	for i, c := range causes {
		m.cause(r, c, i, len(causes))
	}
	switch r.Status {
	case Located:
	case NoFailure:
		m.para(noFailureAdvice)
		m.command("With more runs per step:", repeatCommand(r))
	case ReplayStillFails:
		m.para(stillFailsAdvice)
		lines := divergenceTexts(r.Divergences, 0)
		m.list("Divergences of that run:", lines, len(lines))
		m.command("To see what a fully replayed run does:", "envbisect replay"+r.flagsText()+" "+r.tracePathOr()+" --prefix all -- "+r.commandOr())
		m.command("To compare with a recording made here:", "envbisect record"+r.flagsText()+" -o here.envb -- "+r.commandOr(),
			"envbisect diff "+r.tracePathOr()+" here.envb")
	case Inconclusive:
		m.inconclusive(r)
	case NotRepeatable:
		m.para(notRepeatableAdvice)
	case Unconfirmed:
		if r.CauseLimit != nil {
			m.causeLimit(r)
			break
		}
		m.para(unconfirmedAdvice)
		if len(r.Disagreeing) > 0 {
			m.para(disagreeingText(r))
		}
		m.command("With more runs per step:", repeatCommand(r))
	default:
		// A status this writer has no words of its own for: the next
		// step is the same as for any answer runs left open.
		m.command("With more runs per step:", repeatCommand(r))
	}
	m.fellBackObjects(r)
	if r.Lost.Any() {
		m.para(lostText(r))
	}
	if c := r.Cause; c != nil && r.Status != Located {
		m.para(unlocatedCause(c))
		if c.Call != "" {
			m.printf("\n- **Evidence** call %d: %s\n", c.Seq, mdCodeText(c.Call))
		}
	}
	m.notServed(r)
	if len(r.Unapplied) > 0 {
		m.list("Differs here and could not be applied by a run:", unappliedText(r.Unapplied), len(r.Unapplied))
	}
	if r.Isolation != "" {
		m.para("Runs: " + r.Isolation + ".")
	}
	if s := spaceText(r); s != "" {
		m.para(s)
	}
	if more := extras(fields, reportLaidOut); len(more) > 0 {
		m.printf("\n#### More in the report\n\n")
		m.fields(more, "")
	}
	m.steps(r.Steps, stepFields(fields))
	return m.err
}

// reportCauses are the report's causes: its "causes" when it has them,
// else its culprit alone, else the suspect of a search that ended
// without naming it (each shaped like a culprit).
func reportCauses(fields []jsonField) ([]mdCause, error) {
	var raws []json.RawMessage
	if c := jsonMember(fields, "causes"); c != nil {
		if err := json.Unmarshal(c, &raws); err != nil {
			return nil, fmt.Errorf("markdown report: causes: %w", err)
		}
	}
	for _, key := range []string{"culprit", "suspect"} {
		if c := jsonMember(fields, key); len(raws) == 0 && c != nil && string(c) != "null" {
			raws = []json.RawMessage{c}
		}
	}
	var out []mdCause
	for i, raw := range raws {
		var c Culprit
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("markdown report: cause %d: %w", i+1, err)
		}
		f, err := jsonFields(raw)
		if err != nil {
			return nil, fmt.Errorf("markdown report: cause %d: %w", i+1, err)
		}
		out = append(out, mdCause{Culprit: &c, Fields: f})
	}
	return out, nil
}

// stepFields are the JSON members of each of the report's steps, by
// index (nil when the report's JSON has none).
func stepFields(fields []jsonField) [][]jsonField {
	var raws []json.RawMessage
	if json.Unmarshal(jsonMember(fields, "steps"), &raws) != nil {
		return nil
	}
	out := make([][]jsonField, len(raws))
	for i, raw := range raws {
		out[i], _ = jsonFields(raw)
	}
	return out
}

// mdWriter keeps the first write error; later writes are skipped.
type mdWriter struct {
	w   io.Writer
	err error
}

func (m *mdWriter) printf(format string, args ...any) {
	if m.err == nil {
		_, m.err = fmt.Fprintf(m.w, format, args...)
	}
}

// para writes the plain text s as a paragraph after an empty line.
func (m *mdWriter) para(s string) { m.printf("\n%s\n", mdText(s)) }

// list writes a paragraph of its own, then up to limit items as a list.
func (m *mdWriter) list(intro string, items []string, limit int) {
	if len(items) == 0 {
		return
	}
	m.para(intro)
	m.printf("\n")
	for i, it := range items {
		if i == limit {
			m.printf("- … and %d more\n", len(items)-i)
			break
		}
		m.printf("- %s\n", mdText(it))
	}
}

// command writes what to run next: intro, then the command lines in a
// shell block.
func (m *mdWriter) command(intro string, lines ...string) {
	m.para(intro)
	m.printf("\n%s", mdFence("sh", lines))
}

// summary is the line under the heading: the command, the culprit (and
// how many more causes), the runs.
func (m *mdWriter) summary(r *LocateReport, causes []mdCause) {
	var parts []string
	if len(r.Command) > 0 {
		parts = append(parts, "**Command** "+mdCodeText(r.commandOr()))
	}
	culprit := "none named"
	if len(causes) > 0 {
		culprit = culpritShort(r, causes[0].Culprit)
		if n := len(causes) - 1; n > 0 {
			culprit += fmt.Sprintf(" (and %s)", count(n, "more cause", "more causes"))
		}
	}
	label := "**Culprit** "
	if len(causes) > 0 && r.Status != Located {
		label = "**Culprit, " + mdText(string(r.Status)) + "** "
	}
	parts = append(parts, label+culprit, "**Runs** "+mdText(runsAndTime(r)))
	m.printf("%s\n", strings.Join(parts, " · "))
}

func (m *mdWriter) inconclusive(r *LocateReport) {
	if len(r.Candidates) == 0 {
		m.para(inconclusiveEndsAdvice)
		m.command("With more runs per step:", repeatCommand(r))
		return
	}
	lines := r.CandidateLines
	if len(lines) == 0 {
		for _, s := range r.Candidates {
			lines = append(lines, "call "+strconv.FormatUint(s, 10))
		}
	}
	m.para(fmt.Sprintf("The difference is one of %s:", count(len(lines), "call", "calls")))
	m.printf("\n")
	for i, l := range lines {
		if i == textCandidates {
			m.printf("- … and %d more\n", len(lines)-i)
			break
		}
		m.printf("- %s\n", mdCodeText(l))
	}
	m.para(inconclusiveAdvice)
	m.command("With more runs per step:", repeatCommand(r))
}

// notServed lists the opens whose file the trace does not keep.
func (m *mdWriter) notServed(r *LocateReport) {
	if len(r.NotServed) == 0 {
		return
	}
	m.para(notServedText(r))
	m.printf("\n")
	for _, n := range r.NotServed {
		m.printf("- call %d %s: %s\n", n.Seq, mdCodeText(n.Path), mdText(n.Why))
	}
}

// steps writes every run of the search as a table in a collapsed
// <details> block.
func (m *mdWriter) steps(steps []LocateStep, fields [][]jsonField) {
	if len(steps) == 0 {
		return
	}
	m.printf("\n<details>\n<summary>%s</summary>\n\n", htmlText(fmt.Sprintf("Steps: %s", count(len(steps), "run", "runs"))))
	m.printf("| step | replayed | verdict | seconds | detail |\n|---:|---|---|---:|---|\n")
	for i := range steps {
		s := &steps[i]
		detail := mdText(s.Detail)
		if s.Note != "" {
			detail += " \\[" + mdText(s.Note) + "\\]"
		}
		if s.Taken != 0 && s.Taken != s.Verdict {
			detail += " → taken as " + mdText(s.Taken.String())
		}
		if s.Round > 0 {
			detail += " (round " + strconv.Itoa(s.Round) + ")"
		}
		if i < len(fields) {
			for _, f := range extras(fields[i], stepLaidOut) {
				detail += " \\[" + mdText(fieldLabel(f.Key)+": "+scalarText(f.Value)) + "\\]"
			}
		}
		if s.Taint != "" {
			detail += "<br>tainted: " + mdText(s.Taint)
		}
		for _, l := range divergenceTexts(s.Divergences, textDivergences) {
			if more, ok := strings.CutPrefix(l, "... "); ok {
				l = "… " + more // Markdown's ellipsis
			}
			detail += "<br>" + mdText(l)
		}
		m.printf("| %d | %s | %s | %.2f | %s |\n", s.Step, mdText(s.Replayed()), mdText(s.Verdict.String()), s.Seconds, detail)
	}
	m.printf("\n</details>\n")
}

// repeatCommand is locate again with 5 runs per step, as the text
// suggests it.
func repeatCommand(r *LocateReport) string {
	return "envbisect locate --repeat 5" + r.flagsText() + " " + r.tracePathOr() + " -- " + r.commandOr()
}

// causeLimit writes the end of a search that stopped at its limit of
// causes, as the text does (textWriter.causeLimit).
func (m *mdWriter) causeLimit(r *LocateReport) {
	l := r.CauseLimit
	lines := make([]string, len(l.Found))
	for i, c := range l.Found {
		lines[i] = CauseLine(c)
	}
	m.list(causeLimitFoundText(l), lines, len(lines))
	m.para(causeLimitText(r))
	if !r.fellBack() {
		m.command("Search the objects of the environment:", objectSearchCommand(r))
	}
}
