package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Limits of the text report.
const (
	textGroupCalls  = 12 // calls of the culprit's group listed
	textCandidates  = 30 // candidate calls listed when inconclusive
	textDivergences = 3  // divergences listed under a step
	textWidth       = 78 // paragraphs are wrapped at this width
)

// WriteText writes the report for people: what was found, what it means
// and, for the statuses other than located, what to do next; then every
// run of the search. A report read back from JSON prints too, without
// the candidates' calls. The object search's report (Mechanism
// "materialized") has a form of its own (locate_objects_text.go).
func (r *LocateReport) WriteText(w io.Writer) error {
	t := &textWriter{w: w}
	if r.materialized() {
		t.objects(r)
		return t.err
	}
	switch r.Status {
	case Located:
		t.located(r)
	case NoFailure:
		t.heading(r, "no failure")
		t.para(noFailureAdvice)
		t.printf("\nWith more runs per step:\n  envbisect locate --repeat 5%s %s -- %s\n", r.flagsText(), r.tracePathOr(), r.commandOr())
	case ReplayStillFails:
		t.stillFails(r)
	case Inconclusive:
		t.inconclusive(r)
	case Unconfirmed:
		t.unconfirmed(r)
	case NotRepeatable:
		t.heading(r, "not repeatable")
		t.para(notRepeatableAdvice)
	default:
		t.heading(r, string(r.Status))
	}
	t.fellBackObjects(r)
	if r.Lost.Any() {
		t.para(lostText(r))
	}
	t.notServed(r)
	t.unseen(r)
	t.warnings(r)
	t.unapplied(r)
	if r.Isolation != "" {
		t.para("Runs: " + r.Isolation + ".")
	}
	t.space(r)
	t.steps(r.Steps, r.Verbose)
	return t.err
}

// textWriter keeps the first write error; later writes are skipped.
type textWriter struct {
	w   io.Writer
	err error
}

func (t *textWriter) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, visibleArgs(args)...)
	}
}

// heading is the first line, "no failure (1 run, 0.4 s)", and the
// report's message.
func (t *textWriter) heading(r *LocateReport, status string) {
	t.printf("%s (%s)\n", status, runsAndTime(r))
	if m := r.Message; m != "" {
		t.para(strings.ToUpper(m[:1]) + m[1:] + ".")
	}
}

// para writes a paragraph after an empty line, wrapped.
func (t *textWriter) para(s string) {
	t.printf("\n%s\n", preformatted(wrap(Visible(s), textWidth)))
}

// wrap breaks s into lines of at most width bytes at spaces (a longer
// word gets a line of its own).
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(s) {
		switch {
		case n == 0:
		case n+1+len(w) > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

func runsAndTime(r *LocateReport) string {
	runs := "runs"
	if r.Runs == 1 {
		runs = "run"
	}
	checks := ""
	if r.RepeatRuns > 0 {
		checks = fmt.Sprintf(" and %d repeatability %s", r.RepeatRuns, map[bool]string{true: "check", false: "checks"}[r.RepeatRuns == 1])
	}
	if r.ConfirmRuns > 0 {
		checks += fmt.Sprintf(", %d confirming", r.ConfirmRuns)
	}
	if r.CauseRuns > 0 {
		checks += fmt.Sprintf(", %d for further causes", r.CauseRuns)
	}
	return fmt.Sprintf("%d %s%s, %.1f s", r.Runs, runs, checks, r.Seconds)
}

// located prints the culprit, its results here and in the recording,
// and its group.
func (t *textWriter) located(r *LocateReport) {
	c := r.Culprit
	if c == nil {
		t.heading(r, "located")
		return
	}
	if it := c.Start; it != nil {
		defer t.causes(r)
		t.printf("located: start item %s (%s)\n\n", it.Label(), runsAndTime(r))
		t.printf("culprit   %s, as the command starts\n", it.Label())
		t.printf("good      %s\n", it.ValueWords(it.Good))
		t.printf("here      %s\n", it.ValueWords(it.Here))
		if it.Docker != "" {
			t.printf("docker    %s\n", it.Docker)
		}
		if it.Text != "" {
			t.para(strings.ToUpper(it.Text[:1]) + it.Text[1:] + ".")
		}
		if c.Explanation != "" {
			t.para(c.Explanation)
		}
		t.para(firstConclusion(r, c))
		return
	}
	defer t.rootEvidence(r)
	defer t.causes(r)
	t.printf("located: call %d of %d recorded (%s)\n", c.Seq, r.RecordedCalls, runsAndTime(r))
	t.rootHeads(r) // a root first, then the call that met it first
	t.printf("\n")
	title := CauseTitle(c)
	if cs := r.Cause; cs != nil && c.Unreplayed && cs.Item.Plain() != "" {
		// Named at the fail end (bisect's identityEnd): the cause is the
		// identity item, the call its evidence.
		title = cs.Item.Plain()
	}
	t.printf("cause     %s\n", title)
	who := c.Who
	if c.Exe != "" {
		who += " " + c.Exe + ":"
	}
	t.printf("culprit   %s %s\n", who, c.Call)
	if c.Path != "" {
		t.printf("path      %s\n", c.Path)
	}
	if c.HerePath != "" {
		t.printf("path here %s (%s)\n", c.HerePath, HerePathWords)
	}
	t.printf("good      = %s\n", c.Good.Return)
	t.here(c, r.Verbose)
	if d := c.DNS; d != nil {
		t.printf("dns       %s\n", d.Line())
	}
	if cc := c.Content; cc != nil {
		t.printf("content   the file differs here: call %d, %s\n", cc.Seq, cc.Call)
		t.printf("good      = %s\n", cc.Good.Return)
		t.here(cc, r.Verbose)
	}
	if g := r.Group; g != nil {
		t.printf("group     %s: %s\n", g.Title, groupCalls(g))
	}
	if im := c.Image; im != nil {
		t.printf("image     %s\n", imageText(im))
	}
	if c.Flip != nil {
		t.printf("flip      %s\n", FlipText(c))
	}
	if c.Explanation != "" {
		t.para(c.Explanation)
	}
	t.cause(r)
	t.para(firstConclusion(r, c))
}

// here prints the live result of the culprit and how its data differs:
// a directory listing by the entries that differ, a struct by its
// members, text by a diff; binary bytes only with verbose (-v).
func (t *textWriter) here(c *Culprit, verbose bool) {
	if c.Here.Missing {
		t.printf("here      did not happen in this environment (the failing run took another path before it)\n")
		return
	}
	d := c.DataDiff
	switch {
	case d == nil && c.Here.Return == c.Good.Return:
		t.printf("here      = %s   (the same as recorded)\n", c.Here.Return)
	case d == nil:
		t.printf("here      = %s\n", c.Here.Return)
	case d.Text && len(d.Diff) > 0:
		t.printf("here      = %s   %s:\n", c.Here.Return, differs(c))
		for _, l := range d.Diff {
			t.printf("            %s\n", l)
		}
	case d.Entries != nil:
		t.printf("here      = %s   entries differ: %s\n", c.Here.Return, entriesShort(d.Entries))
		if verbose {
			t.printf("            good: %s\n            here: %s\n", d.GoodBytes, d.HereBytes)
		}
	case d.Struct != "":
		// Members, not bytes: a stat differs in its st_mtime, not at an
		// offset.
		t.printf("here      = %s   %s:\n", c.Here.Return, structDiffers(c))
		t.fields(d.Fields)
	default:
		t.printf("here      = %s   %s: %s\n", c.Here.Return, differs(c), sizes(d))
		switch {
		case len(d.Fields) > 0:
			t.fields(d.Fields)
		case !d.Text && verbose:
			t.printf("            good: %s\n            here: %s\n", d.GoodBytes, d.HereBytes)
		case !d.Text:
			t.printf("            (-v shows the bytes)\n")
		}
	}
}

// fields prints the struct members that differ, one a line, aligned:
// "            st_mode   good S_IFDIR|0755   here S_IFDIR|0700".
func (t *textWriter) fields(fs []FieldDiff) {
	wn, wg := 0, 0
	for _, f := range fs {
		wn, wg = max(wn, len(f.Field)), max(wg, len(f.Good))
	}
	for _, f := range fs {
		t.printf("            %-*s  good %-*s  here %s\n", wn, f.Field, wg, f.Good, f.Here)
	}
}

// differs is "data differs", naming the buffer when the call has more
// than one: "data differs (msg.name)".
func differs(c *Culprit) string {
	if len(c.Good.Data) > 1 || len(c.Here.Data) > 1 {
		return "data differs (" + c.DataDiff.Buffer + ")"
	}
	return "data differs"
}

// structDiffers is "struct stat differs", or, when only members that
// differ between any two runs do, says so.
func structDiffers(c *Culprit) string {
	d := c.DataDiff
	if len(d.Fields) == 0 {
		return d.Struct + " differs only in members that differ between any two runs"
	}
	return d.Struct + " differs in " + strconv.Itoa(len(d.Fields)) + " member(s)"
}

// sizes is "10 bytes -> 12 bytes, first difference at offset 4".
func sizes(d *DataDiff) string {
	s := fmt.Sprintf("%d bytes -> %d bytes", d.GoodSize, d.HereSize)
	if d.GoodSize == d.HereSize {
		s = fmt.Sprintf("%d bytes in both", d.GoodSize)
	}
	s += fmt.Sprintf(", first difference at offset %d", d.FirstDifference)
	if d.Partial {
		s += " (stored in part)"
	}
	return s
}

// groupCalls is "40 openat, 41 fstat, 42 read, 44 close".
func groupCalls(g *CulpritGroup) string {
	var parts []string
	for i, c := range g.Calls {
		if i == textGroupCalls {
			parts = append(parts, fmt.Sprintf("... (%d calls)", len(g.Calls)))
			break
		}
		parts = append(parts, strconv.FormatUint(c.Seq, 10)+" "+c.Syscall)
	}
	return strings.Join(parts, ", ")
}

func (t *textWriter) stillFails(r *LocateReport) {
	t.heading(r, "replay still fails")
	t.para(stillFailsAdvice)
	if len(r.Divergences) > 0 {
		t.printf("\nDivergences of that run:\n")
		for _, l := range divergenceTexts(r.Divergences, 0) {
			t.printf("  %s\n", l)
		}
	}
	t.printf("\nTo see what a fully replayed run does:\n  envbisect replay%s %s --prefix all -- %s\n",
		r.flagsText(), r.tracePathOr(), r.commandOr())
	t.printf("To compare with a recording made here:\n  envbisect record%s -o here.envb -- %s\n  envbisect diff %s here.envb\n",
		r.flagsText(), r.commandOr(), r.tracePathOr())
}

func (t *textWriter) inconclusive(r *LocateReport) {
	t.heading(r, "inconclusive")
	if len(r.Candidates) == 0 {
		t.para(inconclusiveEndsAdvice)
		t.printf("\n  envbisect locate --repeat 5%s %s -- %s\n", r.flagsText(), r.tracePathOr(), r.commandOr())
		return
	}
	t.printf("\n")
	lines := r.CandidateLines
	if len(lines) == 0 {
		for _, s := range r.Candidates {
			lines = append(lines, strconv.FormatUint(s, 10))
		}
	}
	for i, l := range lines {
		if i == textCandidates {
			t.printf("  ... and %d more\n", len(lines)-i)
			break
		}
		t.printf("  %s\n", l)
	}
	t.para(inconclusiveAdvice)
	t.printf("\n  envbisect locate --repeat 5%s %s -- %s\n", r.flagsText(), r.tracePathOr(), r.commandOr())
}

// steps prints the table of runs, one line each; with verbose, each
// run's divergences from the recording under it.
func (t *textWriter) steps(steps []LocateStep, verbose bool) {
	if len(steps) == 0 {
		return
	}
	w := len("replayed     ")
	for i := range steps {
		w = max(w, len(steps[i].Replayed()))
	}
	t.printf("\nstep  %-*s  verdict  seconds  detail\n", w, "replayed")
	for i := range steps {
		s := &steps[i]
		detail := s.Detail
		if s.Note != "" {
			detail += " [" + s.Note + "]"
		}
		if s.Role != "" {
			detail += " [" + s.Role + "]"
		}
		if s.Taken != 0 && s.Taken != s.Verdict {
			detail += " -> " + s.Taken.String()
		}
		if s.Round > 0 {
			detail += " (round " + strconv.Itoa(s.Round) + ")"
		}
		if n := len(s.Divergences); n > 0 && !verbose {
			detail += fmt.Sprintf(" (%d %s, -v lists them)", n, plural(uint64(n), "divergence", "divergences"))
		}
		t.printf("%4d  %-*s  %-7s  %7.2f  %s\n", s.Step, w, s.Replayed(), s.Verdict, s.Seconds, detail)
		if !verbose {
			continue
		}
		for _, l := range divergenceTexts(s.Divergences, textDivergences) {
			t.printf("          %s\n", l)
		}
	}
}

// tracePathOr is the trace's name, or TRACE.
func (r *LocateReport) tracePathOr() string {
	if r.TracePath != "" {
		return r.TracePath
	}
	return "TRACE"
}

// flagsText is " " and the run flags as shell words, or "".
func (r *LocateReport) flagsText() string {
	if len(r.RunFlags) == 0 {
		return ""
	}
	q := make([]string, len(r.RunFlags))
	for i, a := range r.RunFlags {
		q[i] = shellQuote(a)
	}
	return " " + strings.Join(q, " ")
}

// commandOr is the command as a shell line, or CMD.
func (r *LocateReport) commandOr() string {
	if len(r.Command) == 0 {
		return "CMD"
	}
	q := make([]string, len(r.Command))
	for i, a := range r.Command {
		q[i] = shellWord(a)
	}
	return strings.Join(q, " ")
}

// shellWord quotes s for a POSIX shell when it is not a plain word.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// notServed lists the opens whose file the trace does not keep, which
// executed here instead of handing out the good file.
func (t *textWriter) notServed(r *LocateReport) {
	if len(r.NotServed) == 0 {
		return
	}
	t.para(notServedText(r))
	for _, n := range r.NotServed {
		t.printf("  #%d %s: %s\n", n.Seq, n.Path, n.Why)
	}
}
