package depgraph

import (
	"encoding/binary"
	"net/netip"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// atCWD is AT_FDCWD in a 64-bit register.
const atCWD = uint64(1<<64 - 100)

// tb builds a synthetic trace: calls get increasing seqs, each thread
// its own TSeq; a label names a call for the checks.
type tb struct {
	t      *testing.T
	tab    *systable.Table
	evs    []trace.Event
	seq    uint64
	tseq   map[uint32]uint64
	labels map[string]uint64
}

func newTB(t *testing.T) *tb {
	t.Helper()
	tab, err := systable.New("amd64")
	if err != nil {
		t.Fatal(err)
	}
	return &tb{t: t, tab: tab, tseq: map[uint32]uint64{}, labels: map[string]uint64{}}
}

// opt changes a call before it is added.
type opt func(b *tb, row *systable.Syscall, c *trace.Call)

// named gives the call's next path argument: text as the program wrote
// it, abs as the recorder resolved it.
func named(text, abs string) opt {
	return func(b *tb, row *systable.Syscall, c *trace.Call) {
		k := 0
		for i, a := range row.Args {
			if a.Kind != systable.Path {
				continue
			}
			if c.MemOf(uint8(i), trace.PartWhole) != nil {
				k++
				continue
			}
			c.Args[i] = 0x10000 + uint64(i)*0x100
			c.Mem = append(c.Mem, trace.Mem{Arg: uint8(i), Dir: trace.In, Len: uint64(len(text) + 1), Data: []byte(text + "\x00")})
			if k == 0 {
				c.Path = abs
			} else {
				c.Path2 = abs
			}
			return
		}
		b.t.Fatalf("%s has no path argument left for %q", row.Name, text)
	}
}

// mem attaches a captured buffer to argument arg.
func mem(arg uint8, part trace.Part, dir trace.Dir, data []byte) opt {
	return func(_ *tb, _ *systable.Syscall, c *trace.Call) {
		c.Mem = append(c.Mem, trace.Mem{Arg: arg, Part: part, Dir: dir, Len: uint64(len(data)), Data: data})
	}
}

// fdPath sets Call.Path as the recorder does for fd calls.
func fdPath(p string) opt {
	return func(_ *tb, _ *systable.Syscall, c *trace.Call) { c.Path = p }
}

// on makes thread th (of the call's process) the caller.
func on(th uint32) opt { return func(_ *tb, _ *systable.Syscall, c *trace.Call) { c.Thread = th } }

// noReturn marks a call that never returned.
func noReturn() opt { return func(_ *tb, _ *systable.Syscall, c *trace.Call) { c.NoReturn = true } }

// do adds a call of process p (on its main thread, numbered like it) and
// returns its seq; label, if not empty, names it.
func (b *tb) do(label string, p uint32, name string, ret int64, args []uint64, opts ...opt) uint64 {
	b.t.Helper()
	row, ok := b.tab.ByName(name)
	if !ok {
		b.t.Fatalf("no syscall %s", name)
	}
	b.seq++
	c := &trace.Call{Seq: b.seq, Proc: p, Thread: p, Nr: uint32(row.Nr), Ret: ret}
	copy(c.Args[:], args)
	for _, o := range opts {
		o(b, row, c)
	}
	b.tseq[c.Thread]++
	c.TSeq = b.tseq[c.Thread]
	b.evs = append(b.evs, trace.Event{Call: c})
	if label != "" {
		if _, dup := b.labels[label]; dup {
			b.t.Fatalf("label %s used twice", label)
		}
		b.labels[label] = b.seq
	}
	return b.seq
}

// openat opens abs (written as text) in process p and returns fd.
func (b *tb) openat(label string, p uint32, text, abs string, flags uint64, fd int64) uint64 {
	return b.do(label, p, "openat", fd, []uint64{atCWD, 0, flags, 0o644}, named(text, abs))
}

// spawn adds process child, made by its parent's clone with flags, its
// main thread numbered like it. The Spawn event comes before the clone,
// as the recorder writes them.
func (b *tb) spawn(label string, parent, child uint32, flags uint64) uint64 {
	b.evs = append(b.evs, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Spawn, Seq: b.seq, Proc: child, Thread: child,
		Parent: parent, ParentThread: parent, CloneFlags: flags}})
	return b.do(label, parent, "clone", int64(1000+child), []uint64{flags})
}

// spawnThread adds thread th to process p, made by p's main thread.
func (b *tb) spawnThread(label string, p, th uint32) uint64 {
	flags := uint64(unix.CLONE_VM | unix.CLONE_FS | unix.CLONE_FILES | unix.CLONE_SIGHAND | unix.CLONE_THREAD)
	b.evs = append(b.evs, trace.Event{Proc: &trace.ProcEvent{Kind: trace.SpawnThread, Seq: b.seq, Proc: p, Thread: th,
		Parent: p, ParentThread: p, CloneFlags: flags}})
	return b.do(label, p, "clone", int64(2000+th), []uint64{flags})
}

// graph builds the graph of the trace so far.
func (b *tb) graph() *Graph {
	b.t.Helper()
	g, err := Build(b.tab, &trace.Header{Arch: "amd64"}, b.evs)
	if err != nil {
		b.t.Fatal(err)
	}
	return g
}

// l returns the seq of a label.
func (b *tb) l(label string) uint64 {
	b.t.Helper()
	s, ok := b.labels[label]
	if !ok {
		b.t.Fatalf("no call labelled %s", label)
	}
	return s
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
