package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// Cause is the item of the process's identity that explains the
// culprit's error here: no run could give it its good value, and it
// alone makes the call fail the way it did (EPERM from a capability or
// the seccomp filter, EROFS from a read-only mount, EACCES from a noexec
// mount). The call is the evidence.
type Cause struct {
	// Item is the differing item, as listed in LocateReport.Unapplied.
	Item StartItem `json:"item"`
	// Text says why: "chown(/tmp/owned) = EPERM here: this process's
	// bounding set lacks CAP_CHOWN (good: present)".
	Text string `json:"text"`
}

// CallFacts are what ExplainCulprit needs to know of the culprit call
// beyond its report: from the syscall table and the live run.
type CallFacts struct {
	// Capabilities are those whose absence makes the call fail with EPERM
	// or EACCES (systable's Capabilities column), as bit numbers.
	Capabilities []int
	// Execs: the call executes a file (execve, execveat).
	Execs bool
}

// ExplainCulprit returns the item of unapplied that explains c's error
// here, or nil: the seccomp filter when the live call was denied by it,
// a capability the call needs that a capability set lacks here, a
// read-only mount for EROFS, a noexec mount for an exec's EACCES.
func ExplainCulprit(c *Culprit, unapplied []StartItem, f CallFacts) *Cause {
	if c == nil || c.Start != nil || c.Bad.Missing || c.Bad.Errno == "" {
		return nil
	}
	errno := c.Bad.Errno
	call := c.Syscall
	if c.Path != "" {
		call += "(" + c.Path + ")"
	}
	call += " = " + errno + " here: "
	if c.Bad.Denied {
		for _, it := range unapplied {
			if trace.StartKind(it.Kind) == trace.StartSeccompFilter || trace.StartKind(it.Kind) == trace.StartSeccomp {
				if it.Docker != "" {
					it.Docker += " (denies " + c.Syscall + ")"
				}
				return &Cause{Item: it, Text: call + fmt.Sprintf("this process's seccomp filter denies %s (%s: here %s, good %s)",
					c.Syscall, it.Label(), valueOr(it.Here, "none"), valueOr(it.Good, "none"))}
			}
		}
		it := StartItem{Kind: string(trace.StartSeccompFilter)}
		return &Cause{Item: it, Text: call + fmt.Sprintf("this process's seccomp filter denies %s (the recording's did not)", c.Syscall)}
	}
	if errno == "EPERM" || errno == "EACCES" {
		for _, it := range unapplied {
			if trace.StartKind(it.Kind) != trace.StartCaps || it.Good == nil || it.Here == nil {
				continue
			}
			g, err1 := strconv.ParseUint(*it.Good, 16, 64)
			h, err2 := strconv.ParseUint(*it.Here, 16, 64)
			if err1 != nil || err2 != nil {
				continue
			}
			for _, bit := range f.Capabilities {
				if g&(1<<bit) != 0 && h&(1<<bit) == 0 {
					name := trace.CapabilityName(bit)
					return &Cause{Item: it, Text: call + fmt.Sprintf("this process's %s set lacks %s (good: present)", it.Name, name)}
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
	m := trace.MountOf(c.Path, points)
	if m == "" {
		return nil
	}
	it := byPoint[m]
	if it.Here == nil || !trace.HasMountFlag(*it.Here, flag) || it.Good != nil && trace.HasMountFlag(*it.Good, flag) {
		return nil
	}
	what := map[string]string{trace.MountReadOnly: "read-only", trace.MountNoExec: "noexec"}[flag]
	return &Cause{Item: it, Text: call + fmt.Sprintf("the mount at %s is %s here (%s; good: %s)",
		m, what, *it.Here, valueOr(it.Good, "not a mount"))}
}

// valueOr is *v, or or when v is nil.
func valueOr(v *string, or string) string {
	if v == nil {
		return or
	}
	return *v
}

// unappliedText lists the unapplied items, one a line: "caps bounding:
// good 00000000a80425fb, here 00000000a80425fa (here: --cap-drop CHOWN)".
func unappliedText(items []StartItem) []string {
	var out []string
	for _, it := range items {
		line := fmt.Sprintf("%s: good %s, here %s", it.Label(), valueOr(it.Good, "(not recorded)"), valueOr(it.Here, "(none)"))
		if it.Docker != "" {
			line += " (here: " + it.Docker + ")"
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
