package depgraph

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"reflect"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/trace"
)

// atCWD is AT_FDCWD in a 64-bit register.
const atCWD = tracetest.AtCWD

// tb builds a synthetic trace (package tracetest): calls get increasing
// seqs, each thread its own TSeq; a label names a call for the checks.
type tb struct{ *tracetest.Builder }

func newTB(t *testing.T) *tb {
	t.Helper()
	return &tb{tracetest.New(t)}
}

// opt changes a call before it is added.
type opt = tracetest.Opt

// named gives the call's next path argument: text as the program wrote
// it, abs as the recorder resolved it.
func named(text, abs string) opt { return tracetest.Named(text, abs) }

// mem attaches a captured buffer to argument arg.
func mem(arg uint8, part trace.Part, dir trace.Dir, data []byte) opt {
	return tracetest.Mem(arg, part, dir, data)
}

// fdPath sets Call.Path as the recorder does for fd calls.
func fdPath(p string) opt { return tracetest.Path(p) }

// on makes thread th (of the call's process) the caller.
func on(th uint32) opt { return tracetest.On(th) }

// noReturn marks a call that never returned.
func noReturn() opt { return tracetest.NoReturn() }

// do adds a call of process p (on its main thread, numbered like it) and
// returns its seq; label, if not empty, names it.
func (b *tb) do(label string, p uint32, name string, ret int64, args []uint64, opts ...opt) uint64 {
	b.T.Helper()
	return b.Call(label, p, p, name, ret, args, opts...).Seq
}

// openat opens abs (written as text) in process p and returns fd.
func (b *tb) openat(label string, p uint32, text, abs string, flags uint64, fd int64) uint64 {
	return b.do(label, p, "openat", fd, []uint64{atCWD, 0, flags, 0o644}, named(text, abs))
}

// spawn adds process child, made by its parent's clone with flags, its
// main thread numbered like it. The Spawn event comes before the clone,
// as the recorder writes them.
func (b *tb) spawn(label string, parent, child uint32, flags uint64) uint64 {
	b.Events = append(b.Events, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Spawn, Seq: b.Seq(), Proc: child, Thread: child,
		Parent: parent, ParentThread: parent, CloneFlags: flags}})
	return b.do(label, parent, "clone", int64(1000+child), []uint64{flags})
}

// spawnThread adds thread th to process p, made by p's main thread.
func (b *tb) spawnThread(label string, p, th uint32) uint64 {
	flags := uint64(unix.CLONE_VM | unix.CLONE_FS | unix.CLONE_FILES | unix.CLONE_SIGHAND | unix.CLONE_THREAD)
	b.Events = append(b.Events, trace.Event{Proc: &trace.ProcEvent{Kind: trace.SpawnThread, Seq: b.Seq(), Proc: p, Thread: th,
		Parent: p, ParentThread: p, CloneFlags: flags}})
	return b.do(label, p, "clone", int64(2000+th), []uint64{flags})
}

// graph builds the graph of the trace so far, and checks that the lean
// graphs of the trace (BuildOptions) have the same groups, resources,
// classes, echo calls and edges (or edge count).
func (b *tb) graph() *Graph {
	b.T.Helper()
	h := &trace.Header{Arch: "amd64"}
	g, err := Build(b.Table, h, b.Events)
	if err != nil {
		b.T.Fatal(err)
	}
	for _, o := range []BuildOptions{{Lean: true}, {Lean: true, CountEdges: true}} {
		lean, err := BuildWith(b.Table, h, b.Events, o)
		if err != nil {
			b.T.Fatal(err)
		}
		if diff := sameGraph(g, lean, !o.CountEdges); diff != "" {
			b.T.Errorf("the graph built with %+v differs from the whole one: %s", o, diff)
		}
	}
	src, err := BuildWith(b.Table, h, b.Events, BuildOptions{Source: callsOf(b.Events)})
	if err != nil {
		b.T.Fatal(err)
	}
	if diff := sameGraph(g, src, true); diff != "" {
		b.T.Errorf("the graph built with a call source differs from the whole one: %s", diff)
	}
	if diff := sameFromSource(g, src); diff != "" {
		b.T.Errorf("the graph built with a call source: %s", diff)
	}
	return g
}

// callSource is a CallSource of calls in memory, each handed out as a
// fresh copy (as a tracefile.Store's frame decoded again would be).
type callSource map[uint64]*trace.Call

func callsOf(evs []trace.Event) callSource {
	m := make(callSource)
	for _, ev := range evs {
		if ev.Call != nil {
			m[ev.Call.Seq] = ev.Call
		}
	}
	return m
}

func (m callSource) Call(seq uint64) (*trace.Call, error) {
	c, ok := m[seq]
	if !ok {
		return nil, nil
	}
	cp := *c
	return &cp, nil
}

// sameFromSource says how src, built with BuildOptions.Source, answers
// otherwise than full: its calls, paths, and the plan of every prefix
// (actions, reasons, the calls that need them, notes); "" when it does
// not.
func sameFromSource(full, src *Graph) string {
	if src.Lean() || src.Source() == nil {
		return "lean, or without its source"
	}
	i := 0
	for c := range src.AllCalls() {
		if !reflect.DeepEqual(*c, *full.Calls()[i]) {
			return fmt.Sprintf("AllCalls: call %d differs", i)
		}
		i++
	}
	if i != len(full.Calls()) {
		return fmt.Sprintf("AllCalls: %d calls, want %d", i, len(full.Calls()))
	}
	for _, c := range full.Calls() {
		got, ok := src.Call(c.Seq)
		p, _ := src.Path(c.Seq)
		if !ok || !reflect.DeepEqual(*got, *c) || p != c.Path {
			return fmt.Sprintf("call #%d differs", c.Seq)
		}
	}
	seqs := []uint64{0}
	for i := range full.seqs.len() {
		seqs = append(seqs, full.seqs.at(i))
	}
	for _, k := range seqs {
		for _, o := range []ClosureOptions{{}, {ReplayInput: true}} {
			in := func(seq uint64) bool { return seq <= k }
			pf, ps := full.ClosureWith(in, o), src.ClosureWith(in, o)
			if !reflect.DeepEqual(pf.action, ps.action) || !reflect.DeepEqual(pf.reason, ps.reason) ||
				!reflect.DeepEqual(pf.need, ps.need) || !reflect.DeepEqual(pf.notes, ps.notes) {
				return fmt.Sprintf("the plan of prefix %d (%+v) differs", k, o)
			}
		}
	}
	return ""
}

// sameGraph says how lean, a graph built with BuildOptions, differs from
// full in what it keeps; "" when it does not. withEdges: lean keeps its
// edges.
func sameGraph(full, lean *Graph, withEdges bool) string {
	switch {
	case lean.Calls() != nil || lean.NumCalls() != full.NumCalls():
		return fmt.Sprintf("%d calls (kept: %d), want %d", lean.NumCalls(), len(lean.Calls()), full.NumCalls())
	case lean.EdgeCount() != full.EdgeCount():
		return fmt.Sprintf("%d edges, want %d", lean.EdgeCount(), full.EdgeCount())
	case !reflect.DeepEqual(lean.Groups(), full.Groups()):
		return "the groups differ"
	case !reflect.DeepEqual(lean.Resources(), full.Resources()):
		return "the resources differ"
	case !reflect.DeepEqual(lean.echo, full.echo):
		return "the echo calls differ"
	case withEdges && !reflect.DeepEqual(lean.Edges(), full.Edges()):
		return "the edges differ"
	case !withEdges && len(lean.Edges()) != 0:
		return "edges kept"
	}
	for _, c := range full.Calls() {
		nr, _ := lean.Syscall(c.Seq)
		if lean.ClassOf(c.Seq) != full.ClassOf(c.Seq) || lean.GroupOf(c.Seq) != lean.Group(full.GroupOf(c.Seq).ID) || nr != int(c.Nr) {
			return fmt.Sprintf("call #%d: another class, group or syscall", c.Seq)
		}
	}
	return ""
}

// l returns the seq of a label.
func (b *tb) l(label string) uint64 {
	b.T.Helper()
	return b.L(label)
}

// edge returns the edge from one labelled call to another.
func edge(g *Graph, from, to uint64) (Edge, bool) {
	for _, e := range g.Deps(from) {
		if e.To == to {
			return e, true
		}
	}
	return Edge{}, false
}

// sockaddr4 is a struct sockaddr_in.
func sockaddr4(ip string, port uint16) []byte {
	b := make([]byte, 16)
	binary.LittleEndian.PutUint16(b, unix.AF_INET)
	binary.BigEndian.PutUint16(b[2:], port)
	a := netip.MustParseAddr(ip).As4()
	copy(b[4:], a[:])
	return b
}

// sockaddrUnix is a struct sockaddr_un.
func sockaddrUnix(p string) []byte {
	b := make([]byte, 2, 2+len(p)+1)
	binary.LittleEndian.PutUint16(b, unix.AF_UNIX)
	return append(append(b, p...), 0)
}

// fdPair is the int[2] pipe and socketpair write.
func fdPair(a, b int32) []byte {
	out := make([]byte, 8)
	binary.LittleEndian.PutUint32(out, uint32(a))
	binary.LittleEndian.PutUint32(out[4:], uint32(b))
	return out
}
