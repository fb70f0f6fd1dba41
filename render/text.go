package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Text writes a trace as strace-like text, one line per call or process
// event, with the header, start events and end as "# " comment lines. See
// the package documentation for the format.
type Text struct {
	w    io.Writer
	d    *decoder
	o    Options
	main map[uint32]uint32 // logical process → its main thread
	err  error             // the first write error; later writes are skipped
}

// NewText returns a Text writing to w, decoding calls with tab.
func NewText(w io.Writer, tab Rows, o Options) *Text {
	return &Text{w: w, d: newDecoder(tab), o: o, main: map[uint32]uint32{1: 1}}
}

// CallString returns c as strace prints it, without who made the call:
// `openat(AT_FDCWD, "/etc/hosts", O_RDONLY|O_CLOEXEC) = 3`. Strings and
// buffers are cut after stringSize bytes (0: never).
func CallString(tab Rows, c *trace.Call, stringSize int) string {
	return callString(newDecoder(tab), c, stringSize)
}

func callString(d *decoder, c *trace.Call, lim int) string {
	row := d.row(c)
	var b strings.Builder
	b.WriteString(row.Name)
	b.WriteByte('(')
	for i, a := range d.args(c, row) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a.text(lim))
	}
	b.WriteString(") = ")
	b.WriteString(ret(c, row).text(lim))
	if row.Unknown {
		// The table does not describe it: arguments raw, no memory captured.
		b.WriteString(" /* unknown syscall */")
	}
	if c.Denied {
		b.WriteString(" /* denied by seccomp */")
	}
	return b.String()
}

// Begin writes the header block: how the trace was recorded and, unless
// Options.NoStart, the start events.
func (t *Text) Begin(h *trace.Header, start []trace.StartEvent) error {
	t.d.setArch(h)
	if h != nil {
		if h.Observed {
			t.printf("# command: none: an observation (record --attach), nothing was started\n")
		} else {
			t.printf("# command: %s\n", shellJoin(h.Command))
		}
		var where []string
		if !h.Started.IsZero() {
			where = append(where, h.Started.UTC().Format(time.RFC3339))
		}
		if h.Host != "" {
			where = append(where, "host "+h.Host)
		}
		if h.Kernel != "" {
			where = append(where, "Linux "+h.Kernel)
		}
		where = append(where, h.Arch)
		if h.Backend != "" {
			where = append(where, h.Backend)
		}
		if h.NoVDSO {
			where = append(where, "vDSO hidden")
		}
		if h.ASLR {
			where = append(where, "ASLR on")
		}
		if h.Tool != "" {
			by := h.Tool
			if !strings.HasPrefix(by, "envbisect") {
				by = "envbisect " + by
			}
			where = append(where, "by "+by)
		}
		t.printf("# recorded: %s\n", strings.Join(where, ", "))
		if h.Container != "" {
			t.printf("# ran in: %s\n", h.Container)
		}
		if h.Cwd != "" {
			t.printf("# cwd: %s\n", quoteIfNeeded(h.Cwd))
		}
		if len(h.Filtered) > 0 {
			t.printf("# not recorded (never stop the tracee): %s\n", strings.Join(h.Filtered, " "))
		}
		if len(h.Exclude) > 0 {
			t.printf("# contents excluded: %s\n", strings.Join(h.Exclude, " "))
		}
		if h.MaxCapture > 0 {
			t.printf("# buffers stored up to %d bytes\n", h.MaxCapture)
		}
	}
	if !t.o.NoStart {
		for _, s := range start {
			t.printf("# start: %s\n", StartString(s))
		}
	}
	return t.err
}

// StartString returns a start event as the text output prints it after
// "# start: ": "env LANG=C.UTF-8", "argv[1]=-v", "cwd /src", "signal
// SIGHUP ignored".
func StartString(s trace.StartEvent) string {
	v := quoteIfNeeded(s.Value)
	if s.Redacted != "" {
		v = trace.RedactedMarker
	}
	switch {
	case s.Kind == trace.StartArgv:
		return "argv[" + s.Name + "]=" + v
	case s.Kind == trace.StartSignal:
		return "signal " + s.Name + " " + s.Value // "signal SIGHUP ignored"
	case s.Name != "":
		return string(s.Kind) + " " + s.Name + "=" + v
	}
	return string(s.Kind) + " " + v
}

// Event writes the line of a call or process event that passes the filter.
func (t *Text) Event(ev trace.Event) error {
	switch {
	case ev.Call != nil:
		c := ev.Call
		if _, ok := t.main[c.Proc]; !ok {
			t.main[c.Proc] = c.Thread // no spawn event seen: its first thread is the main one
		}
		if !t.o.Filter.Call(c) {
			return t.err
		}
		if c.Gap > 0 {
			t.printf("%s ??? %d %s lost here (ring buffer full) ???\n", t.who(c.Proc, c.Thread), c.Gap, plural(c.Gap, "call", "calls"))
		}
		if t.o.Seq {
			t.printf("#%d ", c.Seq)
		}
		t.printf("%s %s", t.who(c.Proc, c.Thread), callString(t.d, c, t.o.StringSize))
		if c.Incomplete() {
			t.printf(" /* incomplete: buffer data lost */")
		}
		t.printf("\n")
	case ev.Proc != nil:
		t.proc(ev.Proc)
	}
	return t.err
}

// who returns [P] for the main thread of process P, [P:T] for another.
func (t *Text) who(proc, thread uint32) string {
	if m, ok := t.main[proc]; !ok || m == thread {
		return "[" + strconv.FormatUint(uint64(proc), 10) + "]"
	}
	return "[" + strconv.FormatUint(uint64(proc), 10) + ":" + strconv.FormatUint(uint64(thread), 10) + "]"
}

// proc writes a process event.
func (t *Text) proc(e *trace.ProcEvent) {
	switch e.Kind {
	case trace.Spawn:
		t.main[e.Proc] = e.Thread
	case trace.Exec:
		t.main[e.Proc] = e.Thread // exec leaves one thread, the process's main one
	}
	if !t.o.Filter.Proc(e) {
		return
	}
	switch e.Kind {
	case trace.Spawn:
		if e.Parent == 0 { // a process the tracer attached to, or the first one
			t.printf("%s --- started ---\n", t.who(e.Proc, e.Thread))
			return
		}
		t.printf("%s --- spawned [%d] by %s ---\n", t.who(e.Parent, e.ParentThread), e.Proc, spawnCall(e.CloneFlags))
	case trace.SpawnThread:
		t.printf("%s --- spawned thread %s by clone ---\n", t.who(e.Proc, e.ParentThread), t.who(e.Proc, e.Thread))
	case trace.Exec:
		argv := ""
		if len(e.Argv) > 0 {
			argv = " " + strs{items: e.Argv}.text(t.o.StringSize)
		}
		t.printf("%s --- exec %s%s ---\n", t.who(e.Proc, e.Thread), quoteIfNeeded(e.Exe), argv)
	case trace.ExitThread:
		t.printf("%s +++ thread exited +++\n", t.who(e.Proc, e.Thread))
	case trace.Exit:
		t.printf("[%d] +++ %s +++\n", e.Proc, exitString(e.Status, e.Signal))
	default:
		t.printf("%s --- process event %d ---\n", t.who(e.Proc, e.Thread), e.Kind)
	}
}

// spawnCall says how a process was made, from its clone flags: "vfork"
// (CLONE_VFORK, as posix_spawn does), "fork" (its own copy of memory, as
// glibc's fork does with clone), or "clone" (shared memory without
// CLONE_VFORK). It names the kind of creation, not the syscall used.
func spawnCall(flags uint64) string {
	share := systable.CloneSharing(flags)
	switch {
	case share.Vfork:
		return "vfork"
	case !share.VM:
		return "fork"
	}
	return "clone"
}

// exitString says how a process ended: "exited with 1", "killed by SIGKILL".
func exitString(status, sig int) string {
	if sig != 0 {
		return "killed by " + signalName(sig)
	}
	return "exited with " + strconv.Itoa(status)
}

// Finish writes the end line: how the command ended and how much was
// recorded, or that the trace was cut short.
func (t *Text) Finish(end *trace.End) error {
	if end == nil {
		t.printf("# end: missing, the trace was cut short\n")
		return t.err
	}
	how := exitString(end.ExitCode, end.Signal)
	if end.Signal != 0 {
		how += fmt.Sprintf(" (exit code %d)", end.ExitCode)
	}
	t.printf("# end: %s; %d calls, %d processes, %d threads", how, end.Calls, end.Procs, end.Threads)
	if end.Interrupted {
		t.printf("; recording interrupted")
	}
	if end.Verdict != "" {
		t.printf("; the run was judged %s", end.Verdict)
	}
	t.printf("\n")
	if l := end.Lost; l != nil {
		t.printf("# %s\n", LossesString(l))
	}
	return t.err
}

// LossesString says what an eBPF recording lost: "lost: 3 calls, 2
// buffer chunks (1 call incomplete), 0 process events; 4 buffers
// truncated at the capture limit".
func LossesString(l *trace.Losses) string {
	if !l.Any() {
		return fmt.Sprintf("lost: nothing; %d %s truncated at the capture limit", l.Truncated, plural(l.Truncated, "buffer", "buffers"))
	}
	return fmt.Sprintf("lost: %d %s, %d buffer %s (%d %s incomplete), %d process %s; %d %s truncated at the capture limit",
		l.Calls, plural(l.Calls, "call", "calls"), l.Chunks, plural(l.Chunks, "chunk", "chunks"),
		l.Incomplete, plural(l.Incomplete, "call", "calls"), l.Procs, plural(l.Procs, "event", "events"),
		l.Truncated, plural(l.Truncated, "buffer", "buffers"))
}

func plural(n uint64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (t *Text) printf(format string, args ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, visibleArgs(args)...)
	}
}

// shellJoin returns argv as a shell would need it typed.
func shellJoin(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = shellQuote(a)
	}
	return strings.Join(out, " ")
}

func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./=:,+@%", c) >= 0) {
			if strings.IndexFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0 {
				return Quote([]byte(s), 0)
			}
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
