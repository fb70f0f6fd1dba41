package render

import (
	"fmt"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Kinds of UnseenUse.
const (
	// UnseenIOURing: the command used io_uring; its file and socket I/O
	// through the ring is not in the trace.
	UnseenIOURing = "io_uring"
	// UnseenNestedPtrace: the command tried to trace a process itself
	// (strace, gdb) and was refused with EPERM because envbisect traces it.
	UnseenNestedPtrace = "nested_ptrace"
)

// UnseenUse is one limit of tracing the recorded run ran into: something
// the command did that envbisect cannot see or cannot let it do. record
// warns of each kind once; locate's report lists them ("unseen"), so that
// a culprit "outside the system-call interface" or a run that fails under
// envbisect alone can be told apart from a difference of environment.
type UnseenUse struct {
	Kind    string `json:"kind"`
	PID     int32  `json:"pid"`
	Exe     string `json:"exe,omitempty"`
	Seq     uint64 `json:"seq"` // the first call that showed it
	Message string `json:"message"`
}

// UnseenFinder finds the UnseenUses in a stream of trace events, one per
// kind: the first call of a row marked systable.UnseenRingIO, the first
// call of a row marked systable.UnseenNestedTrace that failed with EPERM.
// Feed it every event in order (Event); record does so as it records,
// locate over the trace it reads (UnseenIn).
type UnseenFinder struct {
	table *systable.Table
	exe   map[uint32]string // by process id, from the exec events
	seen  map[string]bool
	// Uses are the uses found so far, in order.
	Uses []UnseenUse
}

// NewUnseenFinder returns a finder reading calls with table.
func NewUnseenFinder(table *systable.Table) *UnseenFinder {
	return &UnseenFinder{table: table, exe: map[uint32]string{}, seen: map[string]bool{}}
}

// Event reads one event and returns the use it reveals when it is the
// first of its kind, else nil.
func (f *UnseenFinder) Event(ev trace.Event) *UnseenUse {
	if p := ev.Proc; p != nil {
		if p.Kind == trace.Exec {
			f.exe[p.Proc] = p.Exe
		}
		return nil
	}
	c := ev.Call
	if c == nil {
		return nil
	}
	row := f.table.ByNr(int(c.Nr))
	var kind string
	switch {
	case row.Unseen == systable.UnseenRingIO:
		kind = UnseenIOURing
	case !c.NoReturn && row.NestedTraceFailed(c.Ret):
		kind = UnseenNestedPtrace
	default:
		return nil
	}
	if f.seen[kind] {
		return nil
	}
	f.seen[kind] = true
	u := UnseenUse{Kind: kind, PID: c.PID, Exe: f.exe[c.Proc], Seq: c.Seq}
	u.Message = unseenMessage(u, row.Name)
	f.Uses = append(f.Uses, u)
	return &f.Uses[len(f.Uses)-1]
}

// UnseenIn returns the UnseenUses of a recorded run's events.
func UnseenIn(table *systable.Table, events []trace.Event) []UnseenUse {
	f := NewUnseenFinder(table)
	for _, ev := range events {
		f.Event(ev)
	}
	return f.Uses
}

// unseenMessage says what a use means, naming the process.
func unseenMessage(u UnseenUse, syscall string) string {
	who := fmt.Sprintf("pid %d (%s)", u.PID, quoteIfNeeded(u.Exe))
	switch u.Kind {
	case UnseenIOURing:
		return fmt.Sprintf("%s uses io_uring (%s, call #%d): its file I/O through the ring is not visible to envbisect, "+
			"so neither recorded nor replayed; a difference there shows as one outside the system-call interface", who, syscall, u.Seq)
	case UnseenNestedPtrace:
		return fmt.Sprintf("%s uses ptrace itself (call #%d failed with EPERM): a process envbisect traces cannot trace others "+
			"(strace, gdb); run it outside envbisect", who, u.Seq)
	}
	return who + ": " + u.Kind
}

// warnings lists, in the text report, what the tracer warned of in the
// runs.
func (t *textWriter) warnings(r *LocateReport) {
	if len(r.Warnings) == 0 {
		return
	}
	t.para("The tracer warned in the runs:")
	for _, w := range r.Warnings {
		t.printf("  %s\n", Visible(w))
	}
}

// unseen lists, in the text report, what the recorded run did that
// envbisect cannot see.
func (t *textWriter) unseen(r *LocateReport) {
	if len(r.Unseen) == 0 {
		return
	}
	t.para("Not visible to envbisect in the recorded run:")
	for _, u := range r.Unseen {
		t.printf("  %s\n", u.Message)
	}
}
