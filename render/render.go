package render

import (
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// DefaultStringSize is how many bytes of a string or buffer the text
// output shows unless told otherwise (strace's -s default).
const DefaultStringSize = 32

// Options control what the renderers print.
type Options struct {
	// StringSize is the number of bytes of a string or buffer shown; longer
	// ones are cut and marked. 0 shows everything. Paths are never cut.
	StringSize int
	// NoStart leaves out the start events.
	NoStart bool
	// Seq prefixes every text line of a call with its global number (#N).
	Seq bool
	// Filter selects the calls and process events shown (and counted by
	// Summary). The zero Filter selects everything.
	Filter Filter
}

// Filter selects calls by syscall number and calls and process events
// by logical process.
type Filter struct {
	Syscalls map[uint32]bool // numbers to show; nil shows all
	Hide     map[uint32]bool // numbers not to show (strace's trace=!NAME)
	Procs    map[uint32]bool // logical processes to show; nil shows all
}

// Call reports whether c passes the filter.
func (f Filter) Call(c *trace.Call) bool {
	if f.Syscalls != nil && !f.Syscalls[c.Nr] || f.Hide[c.Nr] {
		return false
	}
	return f.Procs == nil || f.Procs[c.Proc]
}

// SelectsSyscalls reports whether the filter selects calls by syscall.
func (f Filter) SelectsSyscalls() bool { return f.Syscalls != nil || f.Hide != nil }

// Proc reports whether e passes the filter: it concerns a selected
// process, or a selected process spawned it. Syscall selection does not
// hide process events, as with strace.
func (f Filter) Proc(e *trace.ProcEvent) bool {
	if f.Procs == nil || f.Procs[e.Proc] {
		return true
	}
	return e.Kind == trace.Spawn && f.Procs[e.Parent]
}

// Renderer is what the show command drives: Begin once, Event for every
// event in trace order, Finish once. Finish gets nil when the trace has no
// end frame (it was cut short). Renderers buffer nothing they do not need:
// Text and JSON write each event as it comes; Summary writes in Finish.
type Renderer interface {
	Begin(h *trace.Header, start []trace.StartEvent) error
	Event(ev trace.Event) error
	Finish(end *trace.End) error
}

var (
	_ Renderer = (*Text)(nil)
	_ Renderer = (*JSON)(nil)
	_ Renderer = (*Summary)(nil)
)

// Rows is what render reads of a syscall table; *systable.Table has it.
// Struct layouts follow the architecture of a *systable.Table, or the
// header's Arch once a renderer's Begin has seen it.
type Rows interface {
	ByNr(nr int) *systable.Syscall
	Ioctl(req uint64) (systable.Ioctl, bool)
}

// decoder turns calls into values with one table and one struct layout.
type decoder struct {
	tab    Rows
	layout *layout
}

func newDecoder(tab Rows) *decoder {
	d := &decoder{tab: tab}
	if t, ok := tab.(*systable.Table); ok {
		d.layout = layoutFor(t.Arch)
	}
	return d
}

// setArch picks the struct layouts of the trace's architecture.
func (d *decoder) setArch(h *trace.Header) {
	if h != nil && h.Arch != "" {
		d.layout = layoutFor(h.Arch)
	}
}

// row returns the table row of c.
func (d *decoder) row(c *trace.Call) *systable.Syscall { return d.tab.ByNr(int(c.Nr)) }
