package render

import (
	"fmt"
	"strings"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/trace"
)

// One root for many calls. Causes the call-level search names one by
// one (the create of each file refused on a read-only mount, each call a
// seccomp filter denies, each chown a missing capability forbids) can
// all be explained by one item of the process's identity that no run
// could give its good value (ExplainCall): the root. The report names
// the root once, with the calls that met it as evidence, counted, and
// the programs that made them, rather than one cause per program.

// Root is what several causes share: one seccomp filter, one capability
// of a set, one mount's flag.
type Root struct {
	// Kind is the root's kind: RootSeccomp, RootCapability, RootMount.
	Kind string `json:"kind"`
	// Says names the root in words: "the seccomp filter here (seccomp
	// filter 1) denies faccessat2", "CAP_CHOWN is in the good run's
	// bounding set, not here", "the mount at /srv is read-only here".
	Says string `json:"says"`
	// Item is the item of the process's identity it is, as listed in
	// LocateReport.Unapplied.
	Item StartItem `json:"item"`
	// Causes are the indexes in LocateReport.Causes of the causes it
	// explains.
	Causes []int `json:"causes"`
	// First is the call that met it first, in the order the program made
	// its calls.
	First RootCall `json:"first"`
	// Calls is how many calls met it in the run here (Run); Programs are
	// the programs that made them, in the order they first met it;
	// Evidence lists the calls, at most RootEvidenceListed.
	Calls    int        `json:"calls"`
	Programs []string   `json:"programs"`
	Evidence []RootCall `json:"evidence,omitempty"`
	// Run is the run the calls were counted in: CauseRunNothing (the
	// command as it runs here), or CauseRunEverything.
	Run string `json:"run"`
}

// RootCall is one call that met a root.
type RootCall struct {
	Seq uint64 `json:"seq"`
	// Who is the caller as show prints it, "[3]"; Program the image its
	// process ran.
	Who     string `json:"who"`
	Program string `json:"program,omitempty"`
	// Call is the call as it ran here, as show prints it (with its
	// result), Here that result alone.
	Call string `json:"call"`
	Here string `json:"here,omitempty"`
}

// The kinds of a Root.
const (
	RootSeccomp    = "seccomp_filter"
	RootCapability = "capability"
	RootMount      = "mount"
)

// RootEvidenceListed bounds the calls a Root lists; Calls counts all.
const RootEvidenceListed = 20

// RootKey is the root a Cause names, and its kind and words: causes with
// one key share a root. A filter's words leave out what it denies: the
// grouping step adds the calls it met ("... denies faccessat2"). A capability set is keyed by the capability the
// call lacks (two calls lacking CAP_CHOWN and CAP_FOWNER have two roots
// in one set); a mount by its point and the flag. "" when the cause's
// item is of no kind a root is made of.
func RootKey(c *Cause) (key, kind, says string) {
	it := c.Item
	switch trace.StartKind(it.Kind) {
	case trace.StartSeccompFilter, trace.StartSeccomp:
		return "seccomp " + it.Label(), RootSeccomp, "the seccomp filter here (" + it.Label() + ")"
	case trace.StartCaps:
		if c.Capability == "" {
			return "", "", ""
		}
		return "caps " + it.Name + " " + c.Capability, RootCapability,
			fmt.Sprintf("%s is in the good run's %s set, not here", c.Capability, it.Name)
	case trace.StartMount:
		if c.MountFlag == "" {
			return "", "", ""
		}
		what := map[string]string{trace.MountReadOnly: "read-only", trace.MountNoExec: "noexec"}[c.MountFlag]
		return "mount " + it.Name + " " + c.MountFlag, RootMount, fmt.Sprintf("the mount at %s is %s here", it.Name, what)
	}
	return "", "", ""
}

// RootSentence is the root in one sentence: what it is, who met it
// first, and the evidence counted: "the mount at /srv is read-only here
// (ro; good: rw): met first by [2] /usr/bin/touch at call 162
// openat(...) = -1 EROFS; 6 calls by 4 programs: touch, mkdir, cp, sh".
func RootSentence(r *Root) string {
	s := r.Says + dockerSuffix(r.Item)
	s += ": met first by " + strings.TrimSpace(r.First.Who+" "+r.First.Program)
	s += fmt.Sprintf(" at call %d %s", r.First.Seq, r.First.Call)
	return s + "; " + RootCount(r)
}

// RootCount is the evidence counted: "6 calls by 4 programs: touch,
// mkdir, cp, sh", "1 call by 1 program: chmod".
func RootCount(r *Root) string {
	calls, progs := "calls", "programs"
	if r.Calls == 1 {
		calls = "call"
	}
	if len(r.Programs) == 1 {
		progs = "program"
	}
	names := make([]string, len(r.Programs))
	for i, p := range r.Programs {
		names[i] = programName(p)
	}
	return fmt.Sprintf("%d %s by %d %s: %s", r.Calls, calls, len(r.Programs), progs, strings.Join(names, ", "))
}

// programName is a program's file name: "touch" for /usr/bin/touch.
func programName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 && i < len(p)-1 {
		return p[i+1:]
	}
	return p
}

// rootCausesText says which causes a root explains: "causes 1, 2, 3 and
// 4 are this one root".
func rootCausesText(r *Root, total int) string {
	if len(r.Causes) == total && total > 1 {
		return fmt.Sprintf("All %d causes are this one root.", total)
	}
	var ns []string
	for _, i := range r.Causes {
		ns = append(ns, fmt.Sprint(i+1))
	}
	if len(ns) == 1 {
		return "Cause " + ns[0] + " is this root."
	}
	return "Causes " + strings.Join(ns[:len(ns)-1], ", ") + " and " + ns[len(ns)-1] + " are this one root."
}

// rootLines are the report's roots in text: a heading line per root, its
// causes and its evidence.
func rootLines(r *LocateReport) []string {
	var out []string
	for i := range r.Roots {
		rt := &r.Roots[i]
		out = append(out, "root      "+RootSentence(rt))
		if len(r.Causes) > 1 {
			out = append(out, "          "+rootCausesText(rt, len(r.Causes)))
		}
	}
	return out
}

// rootHeads prints the report's roots, a line each, and the causes each
// explains.
func (t *textWriter) rootHeads(r *LocateReport) {
	if len(r.Roots) == 0 {
		return
	}
	t.printf("\n")
	for _, l := range rootLines(r) {
		t.printf("%s\n", Visible(l))
	}
}

// rootEvidence prints, for each root met by more than one call, the
// calls that met it.
func (t *textWriter) rootEvidence(r *LocateReport) {
	for i := range r.Roots {
		rt := &r.Roots[i]
		if len(rt.Evidence) < 2 {
			continue
		}
		t.printf("\ncalls that met the root (%s, in the run %s):\n", RootCount(rt), rt.Run)
		for _, e := range rt.Evidence {
			t.printf("  %s\n", Visible(rootCallLine(e)))
		}
		if more := rt.Calls - len(rt.Evidence); more > 0 {
			t.printf("  ... and %d more\n", more)
		}
	}
}

// rootCallLine is one call of a root's evidence: "call 162 [2]
// /usr/bin/touch: openat(...) = -1 EROFS (Read-only file system)".
func rootCallLine(e RootCall) string {
	who := e.Who
	if e.Program != "" {
		who += " " + e.Program
	}
	return fmt.Sprintf("call %d %s: %s", e.Seq, who, e.Call)
}

// roots writes the report's roots in Markdown.
func (m *mdWriter) roots(r *LocateReport) {
	if len(r.Roots) == 0 {
		return
	}
	for i := range r.Roots {
		rt := &r.Roots[i]
		m.printf("\n#### Root: %s\n\n", mdText(rt.Says+dockerSuffix(rt.Item)))
		m.printf("- **Met first by** %s at call %d: %s\n", mdText(strings.TrimSpace(rt.First.Who+" "+rt.First.Program)),
			rt.First.Seq, mdCodeText(rt.First.Call))
		m.printf("- **Evidence** %s (in the run %s)\n", mdText(RootCount(rt)), mdText(rt.Run))
		if len(r.Causes) > 1 {
			m.printf("- **Causes** %s\n", mdText(rootCausesText(rt, len(r.Causes))))
		}
		for _, e := range rt.Evidence {
			m.printf("  - call %d %s: %s\n", e.Seq, mdText(strings.TrimSpace(e.Who+" "+e.Program)), mdCodeText(e.Call))
		}
		if more := rt.Calls - len(rt.Evidence); more > 0 {
			m.printf("  - … and %d more\n", more)
		}
	}
}

// MetText is an object cause's evidence: "first [2] /usr/bin/python3;
// 14 calls by 2 programs: python3, sh".
func MetText(m *envobj.Met) string {
	r := Root{Calls: m.Calls, Programs: m.Programs}
	return "first " + strings.TrimSpace(m.Who+" "+m.Program) + "; " + RootCount(&r)
}
