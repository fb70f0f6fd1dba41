// Command bigtrace writes a valid synthetic trace of many small calls,
// for measuring what reading a large trace costs (docs/performance.md,
// "Reading large traces"): the peak memory of show, deps and diff.
//
// The calls are a loop like testdata/victims/cloop.c, made by one process:
// openat of one of -files paths (fd 3), fstat (a 144-byte struct), read
// (100 bytes inline, or every -big-every loops 4 KiB stored once per
// path as a blob, or with -unique a blob of its own), close. -differ-at N makes the openat of loop N fail
// with ENOENT, so that diff of two traces has one difference to print.
//
//	go run ./tools/bigtrace -calls 4000000 -o /tmp/big.envb
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// options are the flags of bigtrace.
type options struct {
	out      string
	calls    int
	files    int
	bigEvery int
	differAt int
	unique   bool
}

func main() {
	var o options
	flag.StringVar(&o.out, "o", "big.envb", "write the trace to `FILE`")
	flag.IntVar(&o.calls, "calls", 4_000_000, "number of system calls (4 per loop)")
	flag.IntVar(&o.files, "files", 1000, "number of distinct paths the loop opens")
	flag.IntVar(&o.bigEvery, "big-every", 4, "every `N`th loop reads 4 KiB (a blob) instead of 100 bytes")
	flag.IntVar(&o.differAt, "differ-at", 0, "make the openat of loop `N` fail with ENOENT (0: none)")
	flag.BoolVar(&o.unique, "unique", false, "every 4 KiB read returns bytes of its own (a blob each), as reading large files does")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "bigtrace:", err)
		os.Exit(1)
	}
}

// syscall numbers of the loop, from the amd64 table.
type numbers struct{ openat, fstat, read, close, exitGroup uint32 }

func loadNumbers() (numbers, error) {
	tab, err := systable.New("amd64")
	if err != nil {
		return numbers{}, err
	}
	var n numbers
	for _, x := range []struct {
		name string
		nr   *uint32
	}{{"openat", &n.openat}, {"fstat", &n.fstat}, {"read", &n.read}, {"close", &n.close}, {"exit_group", &n.exitGroup}} {
		row, ok := tab.ByName(x.name)
		if !ok {
			return numbers{}, fmt.Errorf("amd64 table has no %s", x.name)
		}
		*x.nr = uint32(row.Nr)
	}
	return n, nil
}

func run(o options) error {
	if o.calls < 4 || o.files < 1 || o.bigEvery < 1 {
		return fmt.Errorf("-calls must be at least 4, -files and -big-every at least 1")
	}
	nr, err := loadNumbers()
	if err != nil {
		return err
	}
	started := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	h := &trace.Header{Tool: "bigtrace", Arch: "amd64", Kernel: "6.1.0-synthetic", Host: "bigtrace",
		Command: []string{"/usr/local/bin/cloop"}, Cwd: "/", Started: started, Backend: trace.BackendPtraceSeccomp}
	w, err := tracefile.Options{Replace: true}.Create(o.out, h)
	if err != nil {
		return err
	}
	g := newLoop(o, nr)
	batch := []trace.Event{{Proc: &trace.ProcEvent{Kind: trace.Exec, Proc: 1, Thread: 1, PID: 1000, TID: 1000,
		Exe: "/usr/local/bin/cloop", Argv: []string{"cloop"}}}}
	for g.seq < uint64(o.calls)-1 {
		batch = g.appendLoop(batch)
		if len(batch) >= 1<<14 {
			if err := w.WriteEvents(batch); err != nil {
				w.Abort()
				return err
			}
			batch = batch[:0]
		}
	}
	batch = append(batch, trace.Event{Call: &trace.Call{Seq: g.seq + 1, Proc: 1, Thread: 1, TSeq: g.seq + 1,
		PID: 1000, TID: 1000, Nr: nr.exitGroup, NoReturn: true, Enter: int64(g.seq+1) * 1000}})
	if err := w.WriteEvents(batch); err != nil {
		w.Abort()
		return err
	}
	return w.Close(&trace.End{Finished: started.Add(time.Duration(g.seq) * time.Microsecond), Calls: g.seq + 1, Procs: 1, Threads: 1})
}

// loop makes the calls of one loop at a time.
type loop struct {
	o     options
	nr    numbers
	seq   uint64
	n     int
	paths []string
	big   [][]byte // the 4 KiB each path reads
	small [][]byte // the 100 bytes each path reads
	stat  []byte
	rng   *rand.Rand
}

func newLoop(o options, nr numbers) *loop {
	rng := rand.New(rand.NewPCG(20, 3))
	l := &loop{o: o, nr: nr, stat: make([]byte, 144), rng: rand.New(rand.NewPCG(20, 4))}
	for i := range o.files {
		l.paths = append(l.paths, fmt.Sprintf("/etc/cloop/conf%04d.d/settings.conf", i))
		b := make([]byte, 4096)
		for k := range b {
			b[k] = "abcdefghij klmnop\n"[rng.IntN(18)]
		}
		l.big = append(l.big, b)
		l.small = append(l.small, b[:100])
	}
	binary.LittleEndian.PutUint64(l.stat[48:], 4096) // st_size
	return l
}

// appendLoop appends the calls of the next loop: openat, fstat, read,
// close (only openat when it fails).
func (l *loop) appendLoop(evs []trace.Event) []trace.Event {
	l.n++
	f := l.n % l.o.files
	path := l.paths[f]
	call := func(nrv uint32, ret int64, args [6]uint64, mem ...trace.Mem) {
		l.seq++
		evs = append(evs, trace.Event{Call: &trace.Call{Seq: l.seq, Proc: 1, Thread: 1, TSeq: l.seq, PID: 1000, TID: 1000,
			Nr: nrv, Args: args, Ret: ret, Enter: int64(l.seq) * 1000, Exit: int64(l.seq)*1000 + 400, Path: path, Mem: mem}})
	}
	name := trace.Mem{Arg: 1, Dir: trace.In, Addr: 0x402000, Len: uint64(len(path) + 1), Data: append([]byte(path), 0)}
	if l.n == l.o.differAt {
		call(l.nr.openat, -2, [6]uint64{1<<64 - 100, 0x402000, 0}, name) // ENOENT
		return evs
	}
	call(l.nr.openat, 3, [6]uint64{1<<64 - 100, 0x402000, 0}, name)
	call(l.nr.fstat, 0, [6]uint64{3, 0x7ffe1000}, trace.Mem{Arg: 1, Dir: trace.Out, Addr: 0x7ffe1000, Len: 144, Data: l.stat})
	data := l.small[f]
	if l.n%l.o.bigEvery == 0 {
		data = l.big[f]
		if l.o.unique {
			// Text-like bytes of this loop's own: a fresh buffer, since
			// the batch holds on to it until it is written.
			data = make([]byte, 4096)
			for k := range data {
				data[k] = "abcdefghij klmnop\n"[l.rng.IntN(18)]
			}
		}
	}
	call(l.nr.read, int64(len(data)), [6]uint64{3, 0x7ffe2000, 4096},
		trace.Mem{Arg: 1, Dir: trace.Out, Addr: 0x7ffe2000, Len: uint64(len(data)), Data: data})
	call(l.nr.close, 0, [6]uint64{3})
	return evs
}
