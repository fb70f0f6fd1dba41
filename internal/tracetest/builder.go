package tracetest

import (
	"testing"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// AtCWD is AT_FDCWD in a 64-bit register.
const AtCWD = uint64(1<<64 - 100)

// Amd64 returns the amd64 syscall table, failing t when there is none.
func Amd64(t testing.TB) *systable.Table {
	t.Helper()
	tab, err := systable.New("amd64")
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// Builder builds a synthetic trace of amd64 calls: calls get increasing
// seqs, each thread its own TSeq; a label names a call for the checks.
type Builder struct {
	T      testing.TB
	Table  *systable.Table
	Events []trace.Event

	seq    uint64
	tseq   map[uint32]uint64
	labels map[string]uint64
}

// New returns an empty Builder with the amd64 table.
func New(t testing.TB) *Builder {
	t.Helper()
	return &Builder{T: t, Table: Amd64(t), tseq: map[uint32]uint64{}, labels: map[string]uint64{}}
}

// Opt changes a call before it is added.
type Opt func(b *Builder, row *systable.Syscall, c *trace.Call)

// Call adds a call of syscall name made by thread of process proc, with
// return value ret and arguments args, changed by opts, and returns it;
// label, if not empty, names it (see L).
func (b *Builder) Call(label string, proc, thread uint32, name string, ret int64, args []uint64, opts ...Opt) *trace.Call {
	b.T.Helper()
	row, ok := b.Table.ByName(name)
	if !ok {
		b.T.Fatalf("no syscall %s", name)
	}
	b.seq++
	c := &trace.Call{Seq: b.seq, Proc: proc, Thread: thread, Nr: uint32(row.Nr), Ret: ret}
	copy(c.Args[:], args)
	for _, o := range opts {
		o(b, row, c)
	}
	b.tseq[c.Thread]++
	c.TSeq = b.tseq[c.Thread]
	b.Events = append(b.Events, trace.Event{Call: c})
	if label != "" {
		if _, dup := b.labels[label]; dup {
			b.T.Fatalf("label %s used twice", label)
		}
		b.labels[label] = b.seq
	}
	return c
}

// Seq returns the seq of the last call added (0: none yet).
func (b *Builder) Seq() uint64 { return b.seq }

// L returns the seq of a label.
func (b *Builder) L(label string) uint64 {
	b.T.Helper()
	s, ok := b.labels[label]
	if !ok {
		b.T.Fatalf("no call labelled %s", label)
	}
	return s
}
