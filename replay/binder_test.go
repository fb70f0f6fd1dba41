package replay

import (
	"testing"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// Syscall numbers (x86-64) the synthetic traces use.
const (
	nrRead      = 0
	nrNanosleep = 35
	nrPrctl     = 157
	nrOpenat    = 257
	nrExecve    = 59
)

// synth builds a Recording from events.
func synth(t *testing.T, events []trace.Event) *Recording {
	t.Helper()
	r, err := prepare(&tracefile.Trace{Header: trace.Header{Arch: "amd64", Cwd: "/w"}, Events: events})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

type evs struct {
	list []trace.Event
	seq  uint64
}

func (e *evs) proc(p *trace.ProcEvent) { e.list = append(e.list, trace.Event{Proc: p}) }

func (e *evs) call(proc, thread uint32, nr uint32, path string) *trace.Call {
	e.seq++
	c := &trace.Call{Seq: e.seq, Proc: proc, Thread: thread, Nr: nr, Path: path, Ret: 3}
	if nr == nrOpenat {
		c.Args[0] = atFDCWDReg // openat(AT_FDCWD, path, ...)
	}
	e.list = append(e.list, trace.Event{Call: c})
	return c
}

// workers records a main thread that starts three workers; each names
// itself, sleeps, then opens and reads its own file: their first two
// calls have the same keys.
func workers(t *testing.T) *Recording {
	var e evs
	e.proc(&trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1, Index: 1})
	e.call(1, 1, nrExecve, "/bin/workers")
	e.call(1, 1, nrOpenat, "/w/other")
	for i := uint32(2); i <= 4; i++ {
		e.proc(&trace.ProcEvent{Kind: trace.SpawnThread, Proc: 1, Thread: i, Parent: 1, ParentThread: 1, Index: i})
	}
	for _, i := range []uint32{2, 3, 4} {
		e.call(1, i, nrPrctl, "")
		e.call(1, i, nrNanosleep, "")
	}
	for _, i := range []uint32{2, 3, 4} {
		e.call(1, i, nrOpenat, "/w/w"+string(rune('0'+i))+".conf")
		e.call(1, i, nrRead, "/w/w"+string(rune('0'+i))+".conf")
	}
	return synth(t, e.list)
}

// TestBinderByWhatThreadsDo: live workers created in the recorded order
// but opening their files in another order are matched by the file each
// opens, and their first calls (alike in every worker) are not matched
// to anything until then.
func TestBinderByWhatThreadsDo(t *testing.T) {
	rec := workers(t)
	b := newBinder(rec, DefaultWindow)
	b.procEvent(&trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1, Index: 1})
	for i := uint32(2); i <= 4; i++ {
		b.procEvent(&trace.ProcEvent{Kind: trace.SpawnThread, Proc: 1, Thread: i, Parent: 1, ParentThread: 1, Index: i})
	}
	k := rec.keyer
	feed := func(thread uint32, nr uint32, path string) (*liveThread, bool) {
		c := &trace.Call{Proc: 1, Thread: thread, Nr: nr, Path: path}
		if nr == nrOpenat {
			c.Args[0] = atFDCWDReg
		}
		lt, f, fed := b.thread(c, k.Key(c), nil)
		if lt.rec != nil && !fed {
			f = lt.stream.Feed(k.Key(c))
		}
		return lt, lt.rec != nil && f.Verdict == align.Matched
	}
	// The main thread's first live call: its recorded exec was the
	// helper's and is passed over.
	if lt, _ := feed(1, nrOpenat, "/w/other"); lt.rec == nil || lt.rec.id != 1 {
		t.Fatalf("the main thread is matched to %v, want recorded thread 1", lt.rec)
	}
	// Live thread 4 (recorded: w4.conf) runs first but opens w2.conf: it
	// is the recorded thread 2.
	for _, th := range []uint32{4, 2, 3} {
		if lt, matched := feed(th, nrPrctl, ""); lt.rec != nil || matched {
			t.Fatalf("thread %d matched on a call every worker makes first", th)
		}
		feed(th, nrNanosleep, "")
	}
	if lt, matched := feed(4, nrOpenat, "/w/w2.conf"); lt.rec == nil || lt.rec.id != 2 || !matched {
		t.Errorf("live thread 4 opening w2.conf: matched %v (call matched %v), want recorded thread 2", lt.rec, matched)
	}
	if lt, matched := feed(2, nrOpenat, "/w/w4.conf"); lt.rec == nil || lt.rec.id != 4 || !matched {
		t.Errorf("live thread 2 opening w4.conf: matched %v, want recorded thread 4", lt.rec)
	}
	// A thread doing something no recorded worker did is never matched.
	if lt, _ := feed(3, nrOpenat, "/w/w9.conf"); lt.rec != nil || !lt.unmatched() {
		t.Errorf("live thread 3 opening w9.conf: matched %v, want unmatched", lt.rec)
	}
}

// atFDCWDReg is AT_FDCWD as a 64-bit register holds it.
const atFDCWDReg uint64 = 0xffffffffffffff9c
