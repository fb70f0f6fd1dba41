package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/envobj"
)

// The object search's part of locate's report (LocateReport.Mechanism
// and Objects, envobj.Result): the words the text (locate_objects_text.go)
// and Markdown (locate_objects_markdown.go) forms share.

// textObjectPaths are the paths of a group cause listed.
const textObjectPaths = 5

// objectsInconclusiveAdvice follows an object search whose end could
// not be judged: its run was skipped twice (exit status 125).
const objectsInconclusiveAdvice = "An end of the search could not be judged: its run exited 125 (skip, as for git " +
	"bisect run) twice, so nothing is named. Check that the command can run here (its own output is on stderr, or " +
	"under --logs); if it skips only sometimes, run locate with more runs per step."

const objectsUnconfirmedAdvice = "The search ended at these causes, but the runs that check them did not confirm " +
	"them, so they are not named and no fix is given: the command may be flaky, or depend on state outside the " +
	"sandbox. Run locate with more runs per step."

// materialized reports whether the report is the object search's own.
func (r *LocateReport) materialized() bool {
	return r.Mechanism == envobj.Materialized && r.Objects != nil
}

// fellBack reports whether the report is of the call-level search made
// after the object search could not make the command pass.
func (r *LocateReport) fellBack() bool {
	return r.Mechanism == envobj.CallLevel && r.Objects != nil
}

// objectsCulprit names what the object search found: "/tmp", "2
// causes", "nothing".
func objectsCulprit(o *envobj.Result) string {
	cs := o.Causes
	if len(cs) == 0 {
		cs = o.Suspects
	}
	switch len(cs) {
	case 0:
		return "nothing"
	case 1:
		return cs[0].Name
	}
	return fmt.Sprintf("%d causes", len(cs))
}

// fixIntro introduces the fix: validated by which run.
func fixIntro(f *envobj.Fix) string {
	if !f.Validated {
		return "To get the good state here (not validated by a run):"
	}
	if f.ValidatedBy > 0 {
		return fmt.Sprintf("Fix, validated: a run with exactly this change, and nothing else, passed (step %d):", f.ValidatedBy)
	}
	return "Fix, validated: a run with exactly this change, and nothing else, passed:"
}

// metText is the first call that met a cause: "call 42: openat(...)",
// "call 42"; "" when no recorded call did.
func metText(c *envobj.ResultCause) string {
	switch {
	case c.FirstSeq == 0:
		return ""
	case c.FirstCall != "":
		return fmt.Sprintf("call %d: %s", c.FirstSeq, ShortCall(c.FirstCall))
	}
	return "call " + strconv.FormatUint(c.FirstSeq, 10)
}

// shortCallRunes is how long a call, as show prints it, may be in a
// line of a report before ShortCall cuts it.
const shortCallRunes = 160

// ShortCall is call (as show prints it) cut to about shortCallRunes
// runes for a line of a text or Markdown report: its start, " … ", and
// its last 24 runes, which hold its last arguments and its result. A
// listing of a directory's entries or a long buffer is otherwise a
// paragraph of bytes; the JSON report keeps the whole call.
func ShortCall(call string) string {
	r := []rune(call)
	if len(r) <= shortCallRunes {
		return call
	}
	return string(r[:shortCallRunes-24-3]) + " … " + string(r[len(r)-24:])
}

// objectPaths are a group cause's paths, up to textObjectPaths and "...
// and N more"; nil for an object or a start item.
func objectPaths(c *envobj.ResultCause) []string {
	if c.Kind == string(envobj.GroupObject) || len(c.Objects) == 0 {
		return nil
	}
	var out []string
	for i, o := range c.Objects {
		if i == textObjectPaths {
			out = append(out, fmt.Sprintf("... and %d more", len(c.Objects)-i))
			break
		}
		out = append(out, o.Path)
	}
	return out
}

// fellBackText says that the object search named nothing and the
// call-level search was made.
func fellBackText(o *envobj.Result) string {
	could := "could not make the command pass"
	if o.Status == envobj.Unconfirmed {
		could = "could not confirm what it ended at"
	}
	return fmt.Sprintf("Objects first: the object search (%s, %s) %s: %s. "+
		"What is above was found by replaying recorded calls.", count(o.Runs+o.ConfirmRuns, "run", "runs"),
		count(o.Candidates, "candidate", "candidates"), could, strings.TrimSuffix(o.Message, "."))
}

// unplacedIntro introduces the objects no run put in place.
const unplacedIntro = "Differs here and no run could put it in place (the call-level search may still replay the calls that met it):"

// unplacedLine is one of them: "/etc/secret: file /etc/secret (content
// differs): the trace does not keep its content".
func unplacedLine(u envobj.Unplaced) string {
	return u.What + ": " + u.Why
}

// objectsStepDetail is a step's detail with its note and role; taken is
// how the verdict the search took is said when it differs from the
// run's (" -> skip" in the text).
func objectsStepDetail(s *envobj.ResultStep, taken func(string) string) string {
	d := s.Detail
	if s.Note != "" {
		d += " [" + s.Note + "]"
	}
	if s.Role != "" {
		d += " [" + s.Role + "]"
	}
	if len(s.Stops) > 0 {
		d += " [traced at " + strings.Join(s.Stops, ", ") + " only]"
	}
	if s.Taken != "" && s.Taken != s.Verdict {
		d += taken(s.Taken)
	}
	return d
}
