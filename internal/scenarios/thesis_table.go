package scenarios

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// WriteTable prints the outcomes as a Markdown table next to the
// thesis' figures, then every outcome's problems. A nil outcome is a case
// that could not run; errs holds why (by case name).
func WriteTable(w io.Writer, cases []Case, outs []*Outcome, errs map[string]error) {
	fmt.Fprintln(w, "| case | thesis: calls, culprit | here: calls (replayable) | here: culprit | runs (bound) | locate | record | trace | located |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for i, c := range cases {
		o := outs[i]
		thesis := fmt.Sprintf("%s, #%d %s", Thousands(c.Thesis.Calls), c.Thesis.Culprit, c.Thesis.Call)
		if o == nil || o.Report == nil {
			fmt.Fprintf(w, "| %s | %s | – | – | – | – | – | – | no: could not run |\n", c.Name, thesis)
			continue
		}
		rep := o.Report
		located := "yes"
		if len(o.Problems()) > 0 {
			located = "**no**"
		}
		fmt.Fprintf(w, "| %s | %s | %s (%s) | %s | %d (≤ %d) | %s | %s | %s | %s |\n",
			c.Name, thesis, Thousands(rep.RecordedCalls), Thousands(rep.ReplayableCalls), culpritText(rep),
			rep.Runs, RunBound(rep.RecordedCalls), seconds(o.Locate.Elapsed), seconds(o.Record.Elapsed),
			size(o.TraceBytes-o.ContentBytes)+" (+ "+size(o.ContentBytes)+" of files)", located)
	}
	fmt.Fprintf(w, "\nthesis: each located in under a minute with under 10 MB of trace; targets here: ≤ ⌈log2 N⌉+3 runs, locate under %v, trace under %d MB without the content of its files and %d MiB with it\n",
		MaxLocateTime, MaxTraceBytes>>20, MaxTraceWithFiles>>20)
	for i, c := range cases {
		if err := errs[c.Name]; err != nil {
			fmt.Fprintf(w, "\n%s could not run: %s\n", c.Name, clip(err.Error(), 20))
		}
		if o := outs[i]; o != nil && o.Report != nil {
			if p := o.Problems(); len(p) > 0 {
				fmt.Fprintf(w, "\n%s:\n- %s\n", c.Name, strings.Join(p, "\n- "))
			}
		}
	}
}

// culpritText is the culprit as the table shows it: position, call, what
// it names, and its result in the recording and here.
func culpritText(rep *LocateReport) string {
	c := rep.Culprit
	if c == nil {
		return rep.Status
	}
	what := c.Path
	if !strings.HasPrefix(what, "/") && c.Resource != "" {
		what = c.Resource
	}
	return fmt.Sprintf("#%s %s %s: good %s, here %s", Thousands(int(c.Seq)), c.Syscall, what, result(c.Good), result(c.Here))
}

// result is a culprit's result in a few characters: "14", "ENOENT",
// "missing".
func result(r CallResult) string {
	switch {
	case r.Missing:
		return "missing"
	case r.Errno != "":
		return r.Errno
	case r.Ret == nil:
		return "?"
	}
	return fmt.Sprint(*r.Ret)
}

// clip keeps the first n lines of s (a command's output can be a Go
// runtime's stack dump).
func clip(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) <= n+1 {
		return s
	}
	return strings.Join(lines[:n], "") + fmt.Sprintf("[... %d more lines]", len(lines)-n)
}

// Thousands writes n with commas: 4,712.
func Thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.1f s", d.Seconds()) }

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
