package align

import (
	"testing"

	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// run builds a synthetic trace: process 1 with main thread 1 is started
// by newRun; calls get consecutive Seq and per-thread TSeq, and kernel
// ids pidBase + the logical number, so two runs built with different
// bases differ in every pid.
type run struct {
	t       testing.TB
	tab     *systable.Table
	pidBase int32
	events  []trace.Event
	seq     uint64
	tseq    map[uint32]uint64
	proc    map[uint32]uint32 // thread → process
	start   []trace.StartEvent
}

func newRun(t testing.TB, pidBase int32) *run {
	r := &run{t: t, tab: tracetest.Amd64(t), pidBase: pidBase, tseq: map[uint32]uint64{}, proc: map[uint32]uint32{1: 1}}
	r.events = append(r.events, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1, PID: pidBase + 1, TID: pidBase + 1, Index: 1}})
	return r
}

func (r *run) kid(id uint32) int32 { return r.pidBase + int32(id) }

// spawn adds process proc, with main thread thread, created by parentThread.
func (r *run) spawn(proc, thread, parentThread, index uint32) {
	r.proc[thread] = proc
	r.events = append(r.events, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Spawn, Seq: r.seq, Proc: proc, Thread: thread,
		PID: r.kid(thread), TID: r.kid(thread), Parent: r.proc[parentThread], ParentThread: parentThread, Index: index}})
}

// thread adds thread to the process of parentThread.
func (r *run) thread(thread, parentThread, index uint32) {
	p := r.proc[parentThread]
	r.proc[thread] = p
	var pid int32
	for th, pp := range r.proc {
		if pp == p && (pid == 0 || r.kid(th) < pid) {
			pid = r.kid(th)
		}
	}
	r.events = append(r.events, trace.Event{Proc: &trace.ProcEvent{Kind: trace.SpawnThread, Seq: r.seq, Proc: p, Thread: thread,
		PID: pid, TID: r.kid(thread), Parent: p, ParentThread: parentThread, Index: index}})
}

func (r *run) exec(thread uint32, exe string, argv ...string) {
	r.events = append(r.events, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Exec, Seq: r.seq, Proc: r.proc[thread], Thread: thread,
		PID: r.kid(thread), TID: r.kid(thread), Exe: exe, Argv: argv}})
}

func (r *run) exit(thread uint32, status int) {
	r.events = append(r.events, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Exit, Seq: r.seq, Proc: r.proc[thread], Thread: thread, Status: status}})
}

// call appends a call of thread by syscall name.
func (r *run) call(thread uint32, name string, ret int64, path string, args ...uint64) *trace.Call {
	row, ok := r.tab.ByName(name)
	if !ok {
		r.t.Fatalf("no syscall %s", name)
	}
	r.seq++
	r.tseq[thread]++
	c := &trace.Call{Seq: r.seq, Proc: r.proc[thread], Thread: thread, TSeq: r.tseq[thread], PID: r.kid(thread), TID: r.kid(thread),
		Nr: uint32(row.Nr), Ret: ret, Path: path}
	copy(c.Args[:], args)
	r.events = append(r.events, trace.Event{Call: c})
	return c
}

func (r *run) Run() Run {
	return Run{Header: &trace.Header{Arch: "amd64", Cwd: "/src"}, Start: r.start, Events: r.events}
}

// statBuf returns an x86-64 struct stat.
func statBuf(mode uint32, size int64, ino uint64, mtime int64) string {
	b := make([]byte, 144)
	le.PutUint64(b[8:], ino)
	le.PutUint64(b[16:], 1)
	le.PutUint32(b[24:], mode)
	le.PutUint64(b[48:], uint64(size))
	le.PutUint64(b[88:], uint64(mtime))
	return string(b)
}

// summary is the counts of a Result, for comparing with a want.
type summary struct {
	compared, differ, onlyA, onlyB, threadsA, threadsB, exits, start int
}

func sum(r *Result) summary {
	return summary{r.Compared, r.Differ, r.OnlyACalls, r.OnlyBCalls, len(r.OnlyA), len(r.OnlyB), len(r.Exits), len(r.Start)}
}

// diffs returns the differing pairs of all threads as (A call, B call, diff).
type pairDiff struct {
	a, b *trace.Call
	d    *CallDiff
}

func differing(r *Result) []pairDiff {
	var out []pairDiff
	for _, td := range r.Threads {
		for i, s := range td.Steps {
			if d := td.Diffs[i]; d != nil {
				out = append(out, pairDiff{td.CallsA[s.I], td.CallsB[s.J], d})
			}
		}
	}
	return out
}

// oneSided returns the names of the one-sided calls of all threads, "-name" for A, "+name" for B.
func oneSided(tab *systable.Table, r *Result) []string {
	var out []string
	for _, td := range r.Threads {
		for _, s := range td.Steps {
			switch s.Kind {
			case OnlyA:
				out = append(out, "-"+tab.ByNr(int(td.CallsA[s.I].Nr)).Name)
			case OnlyB:
				out = append(out, "+"+tab.ByNr(int(td.CallsB[s.J].Nr)).Name)
			}
		}
	}
	return out
}
