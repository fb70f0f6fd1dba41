package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/term"

	"github.com/envbisect/envbisect/bisect"
)

// clearLine goes back to the start of a terminal's line and erases it.
const clearLine = "\r\x1b[K"

// progressPrinter prints locate's progress on stderr. On a terminal it
// keeps one line that every run updates; elsewhere (a CI job's log, a
// file) it prints one plain line per finished run, so that a log shows
// the search as it goes.
type progressPrinter struct {
	w   io.Writer
	tty bool
}

// newProgressPrinter returns the printer for w, nil with quiet. The one
// line that each run updates is for a terminal the command's own output
// does not share (ownOutput false: it goes to --logs files); where the
// command writes to w too, a line without its newline would run into
// the command's output, so each finished run gets a plain line.
func newProgressPrinter(w io.Writer, quiet, ownOutput bool) *progressPrinter {
	if quiet {
		return nil
	}
	return &progressPrinter{w: w, tty: !ownOutput && isTerminal(w)}
}

// progress is the callback for bisect.Options.Progress (nil for a nil
// printer). bisect calls it under its lock: runs of a round print one at
// a time.
func (p *progressPrinter) progress() func(bisect.Progress) {
	if p == nil {
		return nil
	}
	return p.print
}

func (p *progressPrinter) print(pr bisect.Progress) {
	switch {
	case !pr.Done && p.tty:
		fmt.Fprintf(p.w, "%senvbisect: %s: replaying %s ...", clearLine, runName(pr), pr.Request)
	case pr.Done && p.tty:
		fmt.Fprintf(p.w, "%senvbisect: %s", clearLine, runLine(pr))
	case pr.Done:
		fmt.Fprintf(p.w, "envbisect: %s\n", runLine(pr))
	}
}

// finish ends the terminal's updating line before the report.
func (p *progressPrinter) finish() {
	if p != nil && p.tty {
		fmt.Fprint(p.w, clearLine)
	}
}

// runName is "run 3, step 2 of about 8", with the round of a parallel
// search and the run's role: "run 9, step 6 of about 6, round 3 [confirm]".
func runName(pr bisect.Progress) string {
	s := fmt.Sprintf("run %d, step %d of about %d", pr.Run, pr.Step, pr.Steps)
	if pr.Round > 0 {
		s += fmt.Sprintf(", round %d", pr.Round)
	}
	if pr.Request.Role != "" {
		s += " [" + pr.Request.Role + "]"
	}
	return s
}

// runLine is one finished run: "run 3, step 2 of about 8: replayed up
// to 21: fail (exit status 1, 0.4 s)".
func runLine(pr bisect.Progress) string {
	return fmt.Sprintf("%s: replayed %s: %s (%s, %.1f s)", runName(pr), pr.Request, pr.Outcome.Verdict, pr.Outcome.Detail, pr.Outcome.Seconds)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
