package render

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// Cause is the item of the process's identity that explains a failing
// call's error here: no run could give it its good value, and it alone
// makes the call fail the way it did (EPERM from a capability or the
// seccomp filter, EROFS from a read-only mount, EACCES from a noexec
// mount). The call is the evidence: the located culprit, or, when the
// search could not name one (the call always executes, as an execve
// does), a call that failed in the run with everything replayed, or in
// the run with nothing replayed (Run).
type Cause struct {
	// Item is the differing item, as listed in LocateReport.Unapplied.
	Item StartItem `json:"item"`
	// Seq and Call are the evidence: the recorded call's number and the
	// call as show prints it.
	Seq  uint64 `json:"seq"`
	Call string `json:"call,omitempty"`
	// Text says why: "chown(/tmp/owned) = EPERM here: CAP_CHOWN is in
	// the good run's bounding set, not here".
	Text string `json:"text"`
	// Run is, when no culprit was located, the run the evidence failed
	// in: "with everything replayed", or "with nothing replayed" (the
	// fail end, when no run with more replayed was left failing).
	Run string `json:"run,omitempty"`
	// Capability is, for a capability set, the capability the call
	// lacks here ("CAP_CHOWN"); MountFlag, for a mount, the flag that
	// refused it (trace.MountReadOnly, trace.MountNoExec): with the item,
	// the root the cause shares with others (RootKey).
	Capability string `json:"capability,omitempty"`
	MountFlag  string `json:"mount_flag,omitempty"`
}

// The runs a Cause's evidence comes from when no culprit was located.
const (
	CauseRunEverything = "with everything replayed"
	CauseRunNothing    = "with nothing replayed"
)

// CallFacts are what ExplainCall needs to know of a call beyond its
// result: from the syscall table.
type CallFacts struct {
	// Capabilities are those whose absence makes the call fail with EPERM
	// or EACCES (systable's Capabilities column), as bit numbers.
	Capabilities []int
	// Execs: the call executes a file (execve, execveat).
	Execs bool
	// CreatesProcess: the call creates a process or thread (clone,
	// fork), which the process limit bounds.
	CreatesProcess bool
}

// FailedCall is a call that failed here, as ExplainCall reads it.
type FailedCall struct {
	Seq     uint64
	Syscall string
	Path    string
	Call    string // as show prints it
	Errno   string // "EPERM"
	Denied  bool   // the process's seccomp filter answered it
	// GoodErrno and GoodDenied are the recorded call's: an error the
	// good run got too is explained by nothing that differs.
	GoodErrno  string
	GoodDenied bool
}

// ExplainCulprit is ExplainCall for the located culprit's live result.
func ExplainCulprit(c *Culprit, unapplied []StartItem, f CallFacts) *Cause {
	if c == nil || c.Start != nil || c.Here.Missing {
		return nil
	}
	return ExplainCall(FailedCall{Seq: c.Seq, Syscall: c.Syscall, Path: c.Path, Call: c.Call, Errno: c.Here.Errno, Denied: c.Here.Denied,
		GoodErrno: c.Good.Errno, GoodDenied: c.Good.Denied}, unapplied, f)
}

// ExplainCall returns the item of unapplied that explains the call's
// error here, or nil: the seccomp filter when the call was denied by it,
// a capability the call needs that a capability set lacks here, a
// resource limit lower here for the error it makes (EMFILE: the
// open-files limit; limit_cause.go), a read-only mount for EROFS, a
// noexec mount for an exec's EACCES.
func ExplainCall(fc FailedCall, unapplied []StartItem, f CallFacts) *Cause {
	if fc.Errno == "" || fc.Errno == fc.GoodErrno && fc.Denied == fc.GoodDenied {
		return nil
	}
	errno := fc.Errno
	call := fc.Syscall
	if strings.HasPrefix(fc.Path, "/") {
		// A path the call names; not the name of an object it made
		// ("socket:[3917397]").
		call += "(" + fc.Path + ")"
	}
	call += " = " + errno + " here: "
	cause := func(it StartItem, text string) *Cause {
		return &Cause{Item: it, Seq: fc.Seq, Call: fc.Call, Text: call + text}
	}
	if fc.Denied {
		for _, it := range unapplied {
			if trace.StartKind(it.Kind) == trace.StartSeccompFilter || trace.StartKind(it.Kind) == trace.StartSeccomp {
				if !slices.Contains(it.Denies, fc.Syscall) {
					it.Denies = append(slices.Clip(it.Denies), fc.Syscall)
				}
				if it.Docker != "" {
					it.Docker = DockerWords(it, nil)
				}
				return cause(it, fmt.Sprintf("this process's seccomp filter denies %s (%s: here %s, good %s)",
					fc.Syscall, it.Label(), valueOr(it.Here, "none"), valueOr(it.Good, "none")))
			}
		}
		// No filter item differs: the filters are the recording's, and
		// the denial is explained by nothing listed.
		return nil
	}
	if it, text, ok := limitCause(errno, unapplied, f); ok {
		return cause(it, text)
	}
	if errno == "EPERM" || errno == "EACCES" {
		for _, it := range unapplied {
			// Only the bounding set caps what a call may have: a missing
			// inheritable or ambient capability fails no call by itself.
			if trace.StartKind(it.Kind) != trace.StartCaps || it.Name != trace.CapSetBounding || it.Good == nil || it.Here == nil {
				continue
			}
			g, err1 := strconv.ParseUint(*it.Good, 16, 64)
			h, err2 := strconv.ParseUint(*it.Here, 16, 64)
			if err1 != nil || err2 != nil {
				continue
			}
			for _, bit := range f.Capabilities {
				if g&(1<<bit) != 0 && h&(1<<bit) == 0 {
					c := cause(it, fmt.Sprintf("%s is in the good run's %s set, not here", trace.CapabilityName(bit), it.Name))
					c.Capability = trace.CapabilityName(bit)
					return c
				}
			}
		}
	}
	var flag string
	switch {
	case errno == "EROFS":
		flag = trace.MountReadOnly
	case errno == "EACCES" && f.Execs:
		flag = trace.MountNoExec
	default:
		return nil
	}
	var points []string
	byPoint := map[string]StartItem{}
	for _, it := range unapplied {
		if trace.StartKind(it.Kind) == trace.StartMount {
			points = append(points, it.Name)
			byPoint[it.Name] = it
		}
	}
	m := trace.MountOf(fc.Path, points)
	if m == "" {
		return nil
	}
	it := byPoint[m]
	if it.Here == nil || !trace.HasMountFlag(*it.Here, flag) || it.Good != nil && trace.HasMountFlag(*it.Good, flag) {
		return nil
	}
	what := map[string]string{trace.MountReadOnly: "read-only", trace.MountNoExec: "noexec"}[flag]
	c := cause(it, fmt.Sprintf("the mount at %s is %s here (%s; good: %s)", m, what, *it.Here, valueOr(it.Good, "not a mount")))
	c.MountFlag = flag
	return c
}

// CauseSentence is the explanation of a call that c explains: its text
// and the item in docker run's words, "chown(/tmp/owned) = EPERM here:
// CAP_CHOWN is in the good run's bounding set, not here (--cap-drop
// CHOWN)."
func CauseSentence(c *Cause) string {
	return c.Text + dockerSuffix(c.Item) + "."
}

// valueOr is *v, or or when v is nil.
func valueOr(v *string, or string) string {
	if v == nil {
		return or
	}
	return *v
}

// unappliedText lists the unapplied items, one a line: "CAP_CHOWN: in
// the good run's bounding set, not here (here: --cap-drop CHOWN)", a
// capability set by its capabilities' names (StartItem.Plain), never by
// its hex value.
func unappliedText(items []StartItem) []string {
	var out []string
	for _, it := range items {
		line := fmt.Sprintf("%s: good %s, here %s", it.Label(), valueOr(it.Good, "(not recorded)"), valueOr(it.Here, "(none)"))
		if text := cmp.Or(it.Text, it.Plain()); text != "" {
			line = text
		}
		if it.Docker != "" {
			line += " (here: " + it.Docker + ")"
		}
		if it.Why != "" {
			line += ": not applied: " + it.Why
		}
		if it.Remedy != "" {
			line += "; " + it.Remedy
		}
		out = append(out, line)
	}
	return out
}

// UnappliedLines is what the report prints under "differs here and
// could not be applied by a run", for the same listing elsewhere (the
// warning locate prints on stderr before it starts).
func UnappliedLines(items []StartItem) []string { return unappliedText(items) }

// dockerSuffix is " (--cap-drop CHOWN)" for an item with Docker words.
func dockerSuffix(it StartItem) string {
	if it.Docker == "" {
		return ""
	}
	return " (" + strings.TrimSpace(it.Docker) + ")"
}
