package render

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Summary counts a trace's calls per syscall, like strace -c, and writes
// the counts with how the command ended in Finish.
type Summary struct {
	w      io.Writer
	d      *decoder
	o      Options
	asJSON bool

	h      *trace.Header
	counts map[uint32]*SyscallCount
	io     map[uint32]ioKind // cache of ioKindOf by number
	procs  map[uint32]bool
	thrs   map[uint32]bool
	r      SummaryReport
	any    bool // a call was counted: First is valid
	kept   KeptOut
}

// SummaryReport is what Summary reports; --summary --json writes it as
// one object.
type SummaryReport struct {
	Command []string `json:"command"`
	// Complete is false when the trace was cut short: ExitCode is then unknown.
	Complete    bool   `json:"complete"`
	ExitCode    *int   `json:"exit_code,omitempty"`
	Signal      string `json:"signal,omitempty"`
	Interrupted bool   `json:"interrupted,omitempty"`
	// Lost: what an eBPF recording lost (absent for ptrace traces).
	Lost *trace.Losses `json:"lost,omitempty"`
	// Calls and Errors count the calls that passed the filter; Recorded
	// counts every call in the trace.
	Calls    uint64 `json:"calls"`
	Errors   uint64 `json:"errors"`
	Recorded uint64 `json:"recorded"`
	// Processes and Threads count the ones that made a counted call.
	Processes int `json:"processes"`
	Threads   int `json:"threads"`
	// BytesRead and BytesWritten add up the return values of the
	// successful calls that move data through an fd: those whose table row
	// has a data buffer filled up to the return value (read, pread64,
	// readv, recvfrom, recvmsg) or one sent by a count argument (write,
	// pwrite64, writev, sendto, sendmsg).
	BytesRead    uint64 `json:"bytes_read"`
	ReadCalls    uint64 `json:"read_calls"`
	BytesWritten uint64 `json:"bytes_written"`
	WriteCalls   uint64 `json:"write_calls"`
	// First and Last are seconds from the start of the recording to the
	// first counted call's entry and the last one's return.
	First    float64         `json:"first"`
	Last     float64         `json:"last"`
	Syscalls []*SyscallCount `json:"syscalls"` // most called first
	// Filtered names the calls that never stopped the tracee and are not
	// in the trace at all.
	Filtered []string `json:"filtered"`
	// KeptOut is what the recording kept out of the trace (secrets,
	// excluded content); absent when nothing was.
	KeptOut *KeptOut `json:"kept_out,omitempty"`
}

// SyscallCount is one line of the summary.
type SyscallCount struct {
	Syscall string `json:"syscall"`
	Nr      uint32 `json:"nr"`
	Calls   uint64 `json:"calls"`
	Errors  uint64 `json:"errors"`
}

// NewSummary returns a Summary that writes a table of text to w.
func NewSummary(w io.Writer, tab Rows, o Options) *Summary {
	return &Summary{w: w, d: newDecoder(tab), o: o, counts: map[uint32]*SyscallCount{},
		io: map[uint32]ioKind{}, procs: map[uint32]bool{}, thrs: map[uint32]bool{}}
}

// NewJSONSummary returns a Summary that writes its SummaryReport to w as
// one JSON object.
func NewJSONSummary(w io.Writer, tab Rows, o Options) *Summary {
	s := NewSummary(w, tab, o)
	s.asJSON = true
	return s
}

// Begin keeps the header for the report.
func (s *Summary) Begin(h *trace.Header, _ []trace.StartEvent) error {
	s.h = h
	return nil
}

// Event counts a call that passes the filter.
func (s *Summary) Event(ev trace.Event) error {
	c := ev.Call
	if c == nil {
		return nil
	}
	s.r.Recorded++
	s.kept.count(c)
	if !s.o.Filter.Call(c) {
		return nil
	}
	n := s.counts[c.Nr]
	if n == nil {
		n = &SyscallCount{Syscall: s.d.tab.ByNr(int(c.Nr)).Name, Nr: c.Nr}
		s.counts[c.Nr] = n
	}
	n.Calls++
	s.r.Calls++
	if c.Errno() != 0 {
		n.Errors++
		s.r.Errors++
	}
	s.procs[c.Proc] = true
	s.thrs[c.Thread] = true
	enter, exit := seconds(c.Enter), seconds(max(c.Exit, c.Enter))
	if !s.any || enter < s.r.First {
		s.r.First = enter
	}
	s.r.Last = max(s.r.Last, exit)
	s.any = true
	if c.NoReturn || c.Ret <= 0 {
		return nil
	}
	switch s.ioKind(c.Nr) {
	case ioRead:
		s.r.BytesRead += uint64(c.Ret)
		s.r.ReadCalls++
	case ioWrite:
		s.r.BytesWritten += uint64(c.Ret)
		s.r.WriteCalls++
	}
	return nil
}

// Report returns the counts so far, with end folded in (nil: cut short).
func (s *Summary) Report(end *trace.End) SummaryReport {
	r := s.r
	if s.h != nil {
		r.Command = s.h.Command
		r.Filtered = s.h.Filtered
	}
	if r.Filtered == nil {
		r.Filtered = []string{} // [] in JSON, not null
	}
	if end != nil {
		r.Complete = true
		code := end.ExitCode
		r.ExitCode = &code
		if end.Signal != 0 {
			r.Signal = signalName(end.Signal)
		}
		r.Interrupted = end.Interrupted
		r.Lost = end.Lost
	}
	r.KeptOut = s.kept.finish(s.h, end)
	r.Processes, r.Threads = len(s.procs), len(s.thrs)
	r.Syscalls = make([]*SyscallCount, 0, len(s.counts))
	for _, n := range s.counts {
		c := *n
		r.Syscalls = append(r.Syscalls, &c)
	}
	slices.SortFunc(r.Syscalls, func(a, b *SyscallCount) int {
		return cmp.Or(cmp.Compare(b.Calls, a.Calls), cmp.Compare(a.Syscall, b.Syscall))
	})
	return r
}

// Finish writes the summary.
func (s *Summary) Finish(end *trace.End) error {
	r := s.Report(end)
	if s.asJSON {
		b, err := marshalNoEscape(r)
		if err != nil {
			return err
		}
		_, err = s.w.Write(append(b, '\n'))
		return err
	}
	var b strings.Builder
	line := func(label, format string, args ...any) {
		fmt.Fprintf(&b, "%-10s %s\n", label+":", fmt.Sprintf(format, args...))
	}
	line("command", "%s", shellJoin(r.Command))
	switch {
	case end == nil:
		line("exit", "unknown, the trace was cut short")
	case end.Signal != 0:
		line("exit", "killed by %s (exit code %d)", r.Signal, end.ExitCode)
	default:
		line("exit", "exited with %d", end.ExitCode)
	}
	if end != nil && end.Interrupted {
		line("note", "the recording was interrupted")
	}
	if end != nil && end.Lost != nil {
		line("ebpf", "%s", LossesString(end.Lost))
	}
	if r.Calls != r.Recorded {
		line("calls", "%d of %d recorded, selected by the filter", r.Calls, r.Recorded)
	}
	if s.any {
		span := time.Duration((r.Last - r.First) * 1e9).Round(time.Microsecond)
		line("span", "%v, from the first call at %.6fs to the last return at %.6fs", span, r.First, r.Last)
	}
	line("processes", "%d, threads: %d", r.Processes, r.Threads)
	line("read", "%d bytes in %d calls", r.BytesRead, r.ReadCalls)
	line("written", "%d bytes in %d calls", r.BytesWritten, r.WriteCalls)
	r.KeptOut.lines(line)
	b.WriteString("\n")
	const rule = "-------- -------- ----------------\n"
	fmt.Fprintf(&b, "%8s %8s %s\n", "calls", "errors", "syscall")
	b.WriteString(rule)
	for _, n := range r.Syscalls {
		fmt.Fprintf(&b, "%8d %8d %s\n", n.Calls, n.Errors, n.Syscall)
	}
	b.WriteString(rule)
	fmt.Fprintf(&b, "%8d %8d %s\n", r.Calls, r.Errors, "total")
	if len(r.Filtered) > 0 {
		fmt.Fprintf(&b, "\nnot recorded (never stop the tracee): %s\n", strings.Join(r.Filtered, " "))
	}
	_, err := io.WriteString(s.w, b.String())
	return err
}

// ioKind says whether a call moves data from or to an fd.
type ioKind uint8

const (
	ioNone ioKind = iota
	ioRead
	ioWrite
)

func (s *Summary) ioKind(nr uint32) ioKind {
	k, ok := s.io[nr]
	if !ok {
		k = ioKindOf(s.d.tab.ByNr(int(nr)))
		s.io[nr] = k
	}
	return k
}

// ioKindOf decides by the row: an fd call with a plain data buffer the
// kernel fills up to the return value reads; one with a plain data buffer
// of a given count writes. Struct buffers (stat, sockaddr) are not data.
func ioKindOf(row *systable.Syscall) ioKind {
	if row.Unknown || row.Effects&systable.UsesFD == 0 {
		return ioNone
	}
	for _, a := range row.Args {
		switch a.Kind {
		case systable.OutIovec, systable.OutMsghdr:
			return ioRead
		case systable.InIovec, systable.InMsghdr:
			return ioWrite
		case systable.OutBuf:
			if a.Struct == "" && (a.Len.From == systable.LenRet || a.Len.From == systable.LenMinArgRet) {
				return ioRead
			}
		case systable.InBuf:
			if a.Struct == "" && a.Len.From == systable.LenArg {
				return ioWrite
			}
		}
	}
	return ioNone
}
