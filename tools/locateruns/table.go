package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/envbisect/envbisect/internal/scenarios"
)

// row is what one case's locate gave.
type row struct {
	name, kind string
	rep        *scenarios.LocateReport // nil when err is set
	locate     time.Duration           // locate's wall time
	// shorten makes the culprit's text the same from run to run (the work
	// directory, the port); nil leaves it as it is.
	shorten *strings.Replacer
	// notes say where the answer is not what the case's test wants.
	notes []string
	// err says why the case could not run.
	err error
}

// writeTable prints the rows as a Markdown table, then the notes and the
// errors of the cases that could not run.
func writeTable(w io.Writer, rows []*row) {
	fmt.Fprintln(w, "| case | recorded calls | replayable calls | candidates | runs | repeat runs | confirm runs | cause runs | bound ⌈log2 N⌉+3 | status | culprit | locate |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|")
	for _, r := range rows {
		name := r.name
		if r.kind == "case study" {
			name += " (case study)"
		}
		if r.rep == nil {
			fmt.Fprintf(w, "| %s | — | — | — | — | — | — | — | — | could not run | — | — |\n", cell(name))
			continue
		}
		rep := r.rep
		candidates, bound := "—", fmt.Sprint(scenarios.RunBound(rep.RecordedCalls))
		if n, ok := rep.SpaceCandidates(); ok {
			candidates = scenarios.Thousands(n)
			bound += fmt.Sprintf(" (C: %d)", scenarios.RunBound(n))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %d | %d | %d | %d | %s | %s | %s | %.1f s |\n",
			cell(name), scenarios.Thousands(rep.RecordedCalls), scenarios.Thousands(rep.ReplayableCalls), candidates,
			rep.Runs, rep.RepeatRuns, rep.ConfirmRuns, rep.CauseRuns, bound, cell(rep.Status), cell(culpritText(rep, r.shorten)), r.locate.Seconds())
	}
	fmt.Fprintln(w, "\nN: recorded calls; C: candidates, when locate reports them (`space.candidates`); runs: the ends and the search; repeat runs: the repeatability checks, on top; confirm runs: those confirming the causes, and cause runs: those searching for further causes, on top too; locate: wall time of the locate command.")
	for _, r := range rows {
		if r.err != nil {
			fmt.Fprintf(w, "\n%s could not run: %s\n", r.name, clip(r.err.Error(), 20))
		}
		if len(r.notes) > 0 {
			fmt.Fprintf(w, "\n%s, not what its test wants:\n- %s\n", r.name, strings.Join(r.notes, "\n- "))
		}
	}
}

// culpritText is the culprit in a few words: "#26 read WORK/env/app.conf",
// "#27 bind tcp 127.0.0.1:PORT", "start env APP_PROFILE", or "—" when
// the report has none: the path when it is one, else the resource.
// shorten, when set, is applied to it.
func culpritText(rep *scenarios.LocateReport, shorten *strings.Replacer) string {
	c := rep.Culprit
	switch {
	case c == nil:
		return "—"
	case c.Start != nil:
		return "start " + strings.TrimSpace(c.Start.Kind+" "+c.Start.Name)
	}
	if len(rep.Causes) > 1 {
		return fmt.Sprintf("%d causes, the first %s", len(rep.Causes), causeText(c, shorten))
	}
	return causeText(c, shorten)
}

// causeText is one cause in a few words (culpritText).
func causeText(c *scenarios.ReportCulprit, shorten *strings.Replacer) string {
	if c.Start != nil {
		return "start " + strings.TrimSpace(c.Start.Kind+" "+c.Start.Name)
	}
	what := c.Path
	if !strings.HasPrefix(what, "/") && c.Resource != "" {
		what = c.Resource // a socket's address, not "socket:[INODE]"
	}
	if shorten != nil {
		what = shorten.Replace(what)
	}
	return strings.TrimSpace(fmt.Sprintf("#%s %s %s", scenarios.Thousands(int(c.Seq)), c.Syscall, what))
}

// cell makes s safe inside a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// clip keeps the first n lines of s (a command's output can be long).
func clip(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) <= n+1 {
		return s
	}
	return strings.Join(lines[:n], "") + fmt.Sprintf("[... %d more lines]", len(lines)-n)
}
