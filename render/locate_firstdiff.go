package render

import (
	"fmt"
	"strings"
)

// The first differing call of a resource and the flip kept as evidence.
// A search finds what replaying flips the verdict: a resource (over what
// differs here) or a call with every replayable call before it (over
// every call). When several calls touch the resource, the flip is often
// a consequence (a re-check stat, an unlink); the culprit named is the
// resource's first call whose live result differs from the recorded one,
// and the flip stays in the report as the search's evidence.

// What a search's flip is (Flip.Unit).
const (
	// FlipResource: the search ran over what differs here; replaying the
	// resource, every call of it (with the units before it), passes and
	// the run without it fails.
	FlipResource = "resource"
	// FlipCall: the search ran over every call; replaying every
	// replayable call up to Flip.Seq passes, up to the one before fails.
	FlipCall = "call"
)

// How a cause's resource differs here (Culprit.Differs), as seen at the
// culprit call.
const (
	DiffersContent  = "content"  // the bytes read from the file
	DiffersErrno    = "errno"    // the call failed on one side only, or with another error
	DiffersMetadata = "metadata" // a stat's mode, owner, size ...
	DiffersData     = "data"     // other output data (directory entries, an address)
	DiffersResult   = "result"   // another return value
	DiffersMissing  = "missing"  // the call was not made here
	DiffersAnswer   = "answer"   // a DNS answer
)

// Flip is what the search found replaying which flips the verdict, kept
// as evidence when the culprit is the first differing call of the flip's
// resource.
type Flip struct {
	// Unit is FlipResource or FlipCall.
	Unit string `json:"unit"`
	// Seq, Syscall and Call are the flip call (FlipCall).
	Seq     uint64 `json:"seq,omitempty"`
	Syscall string `json:"syscall,omitempty"`
	Call    string `json:"call,omitempty"`
	// Resource is the title of the flip's resource (its dependency
	// group); Calls is how many recorded calls it has.
	Resource string `json:"resource,omitempty"`
	Calls    int    `json:"calls,omitempty"`
	// FirstDiffers: a call of the resource answered otherwise here in
	// the failing run next to the flip, and the culprit is the first
	// such call (reads before metadata, docs/locate.md). false: no call
	// of it was seen to differ; the culprit is then the flip call itself
	// (FlipCall) or the call the resource is named by.
	FirstDiffers bool `json:"first_differs"`
}

// resourceOr is the flip's resource title, or "its resource".
func (f *Flip) resourceOr() string {
	if f.Resource != "" {
		return f.Resource
	}
	return "its resource"
}

// FlipText says what flips the verdict and where the resource first
// differs: "replaying up to #44 flips the verdict; file /etc/app.conf
// first differs at #40".
func FlipText(c *Culprit) string {
	f := c.Flip
	if f == nil {
		return ""
	}
	var flip string
	switch f.Unit {
	case FlipCall:
		flip = fmt.Sprintf("replaying up to #%d flips the verdict", f.Seq)
	default:
		flip = fmt.Sprintf("replaying %s (%s, with the resources before it) flips the verdict", f.resourceOr(), count(f.Calls, "call", "calls"))
	}
	where := fmt.Sprintf("#%d", c.Seq)
	if cc := c.Content; cc != nil {
		where = fmt.Sprintf("#%d (its content, read through #%d)", cc.Seq, c.Seq)
	}
	switch {
	case f.FirstDiffers && f.Unit == FlipResource:
		return fmt.Sprintf("%s; it first differs at %s", flip, where)
	case f.FirstDiffers:
		return fmt.Sprintf("%s; %s first differs at %s", flip, f.resourceOr(), where)
	case f.Unit == FlipCall:
		return fmt.Sprintf("%s; no call of %s was seen to answer otherwise here, so #%d itself is named", flip, f.resourceOr(), f.Seq)
	}
	return fmt.Sprintf("%s; none of its calls was seen to answer otherwise here, and #%d names it", flip, c.Seq)
}

// CauseTitle names a cause's resource and how it differs, the first
// line of its report: "file /etc/app.conf (content differs)", "start
// item env LANG (here (not set), good "C")".
func CauseTitle(c *Culprit) string {
	if it := c.Start; it != nil {
		return fmt.Sprintf("start item %s (here %s, good %s)", it.Label(), it.ValueWords(it.Here), it.ValueWords(it.Good))
	}
	title := c.Resource
	if title == "" {
		title = c.Path
	}
	if title == "" {
		title = fmt.Sprintf("call %d %s", c.Seq, c.Syscall)
	}
	if how := differsText(c); how != "" {
		title += " (" + how + ")"
	}
	return title
}

// differsText says how c's resource differs here: "content differs",
// "ENOENT here", "succeeds here, EACCES in the good run".
func differsText(c *Culprit) string {
	switch c.Differs {
	case DiffersContent:
		return "content differs"
	case DiffersErrno:
		good, here := c.Good.Errno, c.Here.Errno
		switch {
		case good == "":
			return here + " here"
		case here == "":
			return "succeeds here, " + good + " in the good run"
		}
		return here + " here, " + good + " in the good run"
	case DiffersMetadata:
		return "metadata differs"
	case DiffersData:
		if c.DataDiff != nil && c.DataDiff.Entries != nil {
			return "entries differ: " + entriesShort(c.DataDiff.Entries)
		}
		return "data differs"
	case DiffersResult:
		return "another result here"
	case DiffersMissing:
		return "not reached here"
	case DiffersAnswer:
		return "answer differs"
	}
	return strings.TrimSpace(c.Differs)
}
