package render

import (
	"fmt"
	"strconv"
	"strings"
)

// The text of confirmation: the causes of a located report after the
// first, and the report of a suspect that confirmation did not confirm.

// causes lists every cause of a report with more than one.
func (t *textWriter) causes(r *LocateReport) {
	if len(r.Causes) < 2 {
		return
	}
	t.printf("\n%d causes, each needed (replaying them together makes the command pass; leaving out any one fails):\n", len(r.Causes))
	for i, c := range r.Causes {
		t.printf("  %d. %s\n", i+1, CauseLine(c))
	}
}

// CauseLine is one cause in a line: "start item env MODE: here B, good
// A", "call 25 openat(...) on file /etc/app.conf: here -1 ENOENT".
func CauseLine(c *Culprit) string {
	if it := c.Start; it != nil {
		return fmt.Sprintf("start item %s: good %s, here %s", it.Label(), it.ValueWords(it.Good), it.ValueWords(it.Here))
	}
	line := "call " + strconv.FormatUint(c.Seq, 10) + " " + c.Call
	if c.Resource != "" {
		line += " (" + c.Resource + ")"
	}
	switch {
	case c.Here.Missing:
		return line + ": did not happen here"
	case c.DataDiff != nil && c.DataDiff.Entries != nil:
		return line + ": entries differ here: " + entriesShort(c.DataDiff.Entries)
	case c.DataDiff != nil:
		return line + ": data differs here"
	case c.Content != nil:
		return line + ": the file's content differs here"
	case c.Here.Return != c.Good.Return:
		return line + ": here = " + c.Here.Return + ", good = " + c.Good.Return
	}
	return line
}

// unconfirmed prints a report whose suspect was not confirmed.
func (t *textWriter) unconfirmed(r *LocateReport) {
	t.heading(r, "unconfirmed")
	if r.CauseLimit != nil {
		t.causeLimit(r)
		return
	}
	if c := r.Suspect; c != nil {
		t.printf("\nsuspect   %s\n", CauseLine(c))
	}
	if len(r.Disagreeing) > 0 {
		var steps []string
		for _, s := range r.Disagreeing {
			steps = append(steps, strconv.Itoa(s))
		}
		t.printf("disagree  step %s (below)\n", strings.Join(steps, ", "))
	}
	t.para(unconfirmedAdvice)
	t.printf("\n  envbisect locate --repeat 5%s %s -- %s\n", r.flagsText(), r.tracePathOr(), r.commandOr())
}

// causeLimit prints the end of a search that stopped at its limit of
// causes: the causes found so far, what that means and what to do.
func (t *textWriter) causeLimit(r *LocateReport) {
	l := r.CauseLimit
	if len(l.Found) > 0 {
		t.para(causeLimitFoundText(l))
		for i, c := range l.Found {
			t.printf("  %d. %s\n", i+1, CauseLine(c))
		}
	}
	t.para(causeLimitText(r))
	if !r.fellBack() {
		t.printf("\n  %s\n", objectSearchCommand(r))
	}
}
