package render

import (
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Limits of the text output.
const (
	diffRunShown    = 6  // calls shown of a longer run of one-sided calls
	diffRunMax      = 8  // runs up to this length are shown whole
	diffTextLines   = 12 // lines of a text snippet
	diffTextContext = 1  // unchanged lines around a changed one in a snippet
	diffEntriesMax  = 10 // directory entries listed per side
	diffBinaryBytes = 16 // bytes shown from the first difference of binary data
)

// DiffOptions control the text of a diff.
type DiffOptions struct {
	// StringSize is the number of bytes of a string or buffer shown; 0
	// shows everything.
	StringSize int
	// Context is the number of matching calls shown before and after each
	// difference.
	Context int
}

// DiffSide is one of the two traces a diff compares: the name it was
// given by (a file name) and its header.
type DiffSide struct {
	Name   string
	Header *trace.Header
}

// WriteDiffText writes res, the alignment of the traces good and bad, as
// text; see the diff command's help.
func WriteDiffText(w io.Writer, tab *systable.Table, res *align.Result, o DiffOptions, good, bad DiffSide) error {
	return (&diffText{w: w, tab: tab, res: res, o: o}).write(good, bad)
}

// diffText writes a Result as text.
type diffText struct {
	w   io.Writer
	tab *systable.Table
	res *align.Result
	o   DiffOptions
	err error
}

func (d *diffText) printf(format string, args ...any) {
	if d.err == nil {
		_, d.err = fmt.Fprintf(d.w, format, visibleArgs(args)...)
	}
}

func (d *diffText) write(good, bad DiffSide) error {
	d.printf("--- GOOD %s: %s\n", good.Name, traceOrigin(good.Header))
	d.printf("+++ BAD  %s: %s\n", bad.Name, traceOrigin(bad.Header))
	for i := range d.res.Threads {
		d.thread(&d.res.Threads[i])
	}
	d.unmatched()
	d.start()
	d.summary()
	return d.err
}

// traceOrigin says what was recorded where: "make test (host ci-1, Linux 6.1.0, 2025-01-02T03:04:05Z)".
func traceOrigin(h *trace.Header) string {
	var where []string
	if h.Host != "" {
		where = append(where, "host "+h.Host)
	}
	if h.Kernel != "" {
		where = append(where, "Linux "+h.Kernel)
	}
	if !h.Started.IsZero() {
		where = append(where, h.Started.UTC().Format(time.RFC3339))
	}
	s := shellJoinArgs(h.Command)
	if len(where) > 0 {
		s += " (" + strings.Join(where, ", ") + ")"
	}
	return s
}

// shellJoinArgs joins argv for display, quoting words that need it.
func shellJoinArgs(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?;&|<>()") {
			a = Quote([]byte(a), 0)
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}

// thread writes the differences of one matched thread pair, if any.
func (d *diffText) thread(td *align.ThreadDiff) {
	res := d.res
	var exit *align.ExitDiff
	if pa := res.A.Threads[td.A].Proc; res.A.Procs[pa].Main == td.A {
		for i := range res.Exits {
			if res.Exits[i].ProcA == pa {
				exit = &res.Exits[i]
			}
		}
	}
	show := make([]bool, len(td.Steps)) // steps printed
	interesting := false
	for i, s := range td.Steps {
		if s.Kind != align.Pair || td.Diffs[i] != nil {
			interesting = true
			for k := max(0, i-d.o.Context); k <= min(len(td.Steps)-1, i+d.o.Context); k++ {
				show[k] = true
			}
		}
	}
	if !interesting && exit == nil {
		return
	}
	la, lb := res.A.Label(td.A), res.B.Label(td.B)
	who := la
	if la != lb {
		who = "GOOD " + la + " BAD " + lb
	}
	if exe := res.A.Exe(res.A.Threads[td.A].Proc); exe != "" {
		who += " " + exe
	}
	d.printf("@@ %s @@\n", who)
	gap := false
	for i := 0; i < len(td.Steps); i++ {
		if !show[i] {
			gap = true
			continue
		}
		if gap && d.o.Context > 0 && i > 0 {
			d.printf("  ...\n")
		}
		gap = false
		s := td.Steps[i]
		switch {
		case s.Kind == align.Pair && td.Diffs[i] == nil:
			d.printf("  %s\n", d.callLine(res.A, td.CallsA[s.I]))
		case s.Kind == align.Pair:
			d.pair(td.CallsA[s.I], td.CallsB[s.J], td.Diffs[i])
		default:
			// A run of one-sided steps: all of A's, then all of B's.
			j := i
			for j < len(td.Steps) && td.Steps[j].Kind != align.Pair {
				j++
			}
			d.run(td, td.Steps[i:j])
			i = j - 1
		}
	}
	if exit != nil {
		d.printf("- %s +++ %s +++\n", la, exitText(exit.A))
		d.printf("+ %s +++ %s +++\n", lb, exitText(exit.B))
	}
}

func exitText(e *trace.ProcEvent) string {
	switch {
	case e == nil:
		return "no exit recorded"
	case e.Signal != 0:
		return "killed by " + systable.SignalName(e.Signal)
	}
	return "exited with " + strconv.Itoa(e.Status)
}

// callLine is "#412 [1] openat(...) = 3".
func (d *diffText) callLine(t *align.Tree, c *trace.Call) string {
	return "#" + strconv.FormatUint(c.Seq, 10) + " " + t.Label(c.Thread) + " " + CallString(d.tab, c, d.o.StringSize)
}

// pair writes a call that differs, its two lines and what differs.
func (d *diffText) pair(a, b *trace.Call, cd *align.CallDiff) {
	d.printf("- %s\n", d.callLine(d.res.A, a))
	d.printf("+ %s\n", d.callLine(d.res.B, b))
	row := d.tab.ByNr(int(a.Nr))
	for _, dd := range cd.Data {
		d.data(row, &dd, "")
	}
	for _, dd := range cd.Sent {
		d.data(row, &dd, " (sent)")
	}
}

// run writes a run of one-sided steps, summarising long ones.
func (d *diffText) run(td *align.ThreadDiff, steps []align.Step) {
	var as, bs []*trace.Call
	for _, s := range steps {
		if s.Kind == align.OnlyA {
			as = append(as, td.CallsA[s.I])
		} else {
			bs = append(bs, td.CallsB[s.J])
		}
	}
	d.side("<", "GOOD", d.res.A, as)
	d.side(">", "BAD", d.res.B, bs)
}

func (d *diffText) side(mark, name string, t *align.Tree, calls []*trace.Call) {
	shown := calls
	if len(calls) > diffRunMax {
		shown = calls[:diffRunShown]
	}
	for _, c := range shown {
		d.printf("%s %s\n", mark, d.callLine(t, c))
	}
	if rest := calls[len(shown):]; len(rest) > 0 {
		d.printf("%s ... %d more calls only in %s, through #%d: %s\n", mark, len(rest), name, rest[len(rest)-1].Seq, d.countNames(rest))
	}
}

// countNames is "read ×20, poll ×17", most frequent first.
func (d *diffText) countNames(calls []*trace.Call) string {
	n := map[string]int{}
	for _, c := range calls {
		n[d.tab.ByNr(int(c.Nr)).Name]++
	}
	names := make([]string, 0, len(n))
	for k := range n {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if n[names[i]] != n[names[j]] {
			return n[names[i]] > n[names[j]]
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = k + " ×" + strconv.Itoa(n[k])
	}
	return strings.Join(parts, ", ")
}

// data writes the description of one differing buffer.
func (d *diffText) data(row *systable.Syscall, dd *align.DataDiff, sent string) {
	name := dataName(row, dd) + sent
	note := ""
	if dd.Note != "" {
		note = " (" + dd.Note + ")"
	}
	switch {
	case len(dd.Fields) > 0:
		parts := make([]string, len(dd.Fields))
		for i, f := range dd.Fields {
			parts[i] = strings.TrimPrefix(f.Name+" ", " ") + f.A + " -> " + f.B
		}
		d.printf("    %s: %s%s\n", name, strings.Join(parts, ", "), note)
	case dd.OnlyA != nil || dd.OnlyB != nil:
		d.printf("    %s: entries only in GOOD: %s; only in BAD: %s%s\n", name, listNames(dd.OnlyA), listNames(dd.OnlyB), note)
	default:
		d.printf("    %s: %s%s\n", name, lengths(dd), note)
		d.bytes(dd)
	}
}

// dataName names a buffer by its argument: "buf", "msg.msg_name".
func dataName(row *systable.Syscall, dd *align.DataDiff) string {
	name := "arg" + strconv.Itoa(int(dd.Arg))
	if int(dd.Arg) < len(row.Args) {
		name = row.Args[dd.Arg].Name
		if row.Args[dd.Arg].Kind.IsMmsghdr() {
			name += "[" + strconv.Itoa(int(dd.Entry)) + "]" // one entry of an mmsghdr array
		}
	}
	switch dd.Part {
	case trace.PartIovData:
		name += " data"
	case trace.PartName:
		name += ".msg_name"
	case trace.PartControl:
		name += ".msg_control"
	case trace.PartLen:
		name += " length"
	case trace.PartMsgLen:
		name += ".msg_len"
	}
	return name
}

func listNames(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	if len(names) > diffEntriesMax {
		return strings.Join(names[:diffEntriesMax], ", ") + fmt.Sprintf(" and %d more", len(names)-diffEntriesMax)
	}
	return strings.Join(names, ", ")
}

// lengths is "12 bytes in both, first difference at offset 6" or
// "1523 bytes -> 0 bytes".
func lengths(dd *align.DataDiff) string {
	var s string
	switch {
	case dd.A == nil && dd.LenA == 0:
		s = fmt.Sprintf("none -> %d bytes", dd.LenB)
	case dd.B == nil && dd.LenB == 0:
		s = fmt.Sprintf("%d bytes -> none", dd.LenA)
	case dd.LenA == dd.LenB:
		s = fmt.Sprintf("%d bytes in both", dd.LenA)
	default:
		s = fmt.Sprintf("%d bytes -> %d bytes", dd.LenA, dd.LenB)
	}
	if dd.Offset >= 0 {
		s += fmt.Sprintf(", first difference at offset %d", dd.Offset)
	}
	return s
}

// bytes shows where two buffers differ: the changed lines of text, or
// the bytes from the first difference.
func (d *diffText) bytes(dd *align.DataDiff) {
	if dd.Offset < 0 || dd.A == nil || dd.B == nil {
		return
	}
	if align.IsText(dd.A) && align.IsText(dd.B) {
		for _, l := range align.TextDiff(dd.A, dd.B, diffTextContext, diffTextLines) {
			d.printf("    %s\n", d.cut(l))
		}
		return
	}
	excerpt := func(b []byte) string {
		if dd.Offset >= len(b) {
			return "(end)"
		}
		return Quote(b[dd.Offset:], diffBinaryBytes)
	}
	d.printf("    at offset %d: %s -> %s\n", dd.Offset, excerpt(dd.A), excerpt(dd.B))
}

// cut shortens a snippet line to the string limit (at least 80 bytes).
func (d *diffText) cut(l string) string {
	if d.o.StringSize == 0 {
		return l
	}
	n := max(d.o.StringSize, 80)
	if len(l) > n {
		return l[:n] + "..."
	}
	return l
}

// unmatched writes the processes and threads found in one trace only.
func (d *diffText) unmatched() {
	res := d.res
	if len(res.OnlyA) == 0 && len(res.OnlyB) == 0 {
		return
	}
	d.printf("@@ processes and threads in one trace only @@\n")
	d.orphans("<", res.A, res.OnlyA, func(p uint32) bool { _, ok := res.Mapping.Procs[p]; return ok })
	d.orphans(">", res.B, res.OnlyB, func(p uint32) bool { _, ok := res.Mapping.ProcA(p); return ok })
}

func (d *diffText) orphans(mark string, t *align.Tree, threads []uint32, matched func(uint32) bool) {
	for _, o := range orphanList(t, threads, matched) {
		if o.thread {
			d.printf("%s %s thread: %d calls\n", mark, t.Label(o.id), o.calls)
			continue
		}
		p := t.Procs[o.id]
		desc := "process"
		if len(p.Execs) > 0 {
			e := p.Execs[len(p.Execs)-1]
			desc += " " + e.Exe
			if len(e.Argv) > 0 && (len(e.Argv) > 1 || e.Argv[0] != path.Base(e.Exe)) {
				desc += " [" + shellJoinArgs(e.Argv) + "]"
			}
		}
		if p.Parent != 0 {
			desc += ", child of [" + strconv.FormatUint(uint64(p.Parent), 10) + "]"
		}
		d.printf("%s [%d] %s: %d calls\n", mark, o.id, desc, o.calls)
	}
}

// orphan is a process none of whose threads is matched, or an unmatched
// thread of a matched process.
type orphan struct {
	id     uint32
	thread bool
	calls  int
}

func orphanList(t *align.Tree, threads []uint32, matched func(uint32) bool) []orphan {
	var out []orphan
	seen := map[uint32]bool{}
	for _, th := range threads {
		p := t.Threads[th].Proc
		if matched(p) {
			out = append(out, orphan{id: th, thread: true, calls: len(t.Threads[th].Calls)})
			continue
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, orphan{id: p, calls: t.CallCount(p)})
		}
	}
	return out
}

// start writes the start events that differ.
func (d *diffText) start() {
	if len(d.res.Start) == 0 {
		return
	}
	d.printf("@@ start events @@\n")
	for _, s := range d.res.Start {
		switch {
		case s.A != nil && s.B != nil:
			d.printf("- %s\n+ %s\n", StartString(*s.A), StartString(*s.B))
		case s.A != nil:
			d.printf("< %s\n", StartString(*s.A))
		default:
			d.printf("> %s\n", StartString(*s.B))
		}
	}
}

func (d *diffText) summary() {
	r := d.res
	d.printf("# %s compared, %s, %d only in GOOD, %d only in BAD", countOf(r.Compared, "call"), differ(r.Differ, ""), r.OnlyACalls, r.OnlyBCalls)
	d.printf("; %s matched", countOf(len(r.Threads), "thread"))
	if len(r.OnlyA) > 0 || len(r.OnlyB) > 0 {
		d.printf(", %d only in GOOD (%s), %d only in BAD (%s)", len(r.OnlyA), countOf(r.UnmatchedCallsA, "call"), len(r.OnlyB), countOf(r.UnmatchedCallsB, "call"))
	}
	if len(r.Exits) > 0 {
		d.printf("; %s", differ(len(r.Exits), "exit status"))
	}
	d.printf("; %s\n", differ(len(r.Start), "start event"))
}

// differ is "1 start event differs", "2 start events differ", "3 differ".
func differ(n int, what string) string {
	if what == "" {
		if n == 1 {
			return "1 differs"
		}
		return strconv.Itoa(n) + " differ"
	}
	if n == 1 {
		return "1 " + what + " differs"
	}
	return countOf(n, what) + " differ"
}

func countOf(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "s") {
		return strconv.Itoa(n) + " " + what + "es"
	}
	return strconv.Itoa(n) + " " + what + "s"
}
