package ebpfrec

import (
	"slices"
	"time"

	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// assembler turns the probe's records into trace events.
type assembler struct {
	tab    *systable.Table
	obs    launch.Observer
	filter launch.ContentFilter
	// root is the command's pid; attached is set for an observation,
	// where every process found is recorded from its first call.
	root      int32
	helperExe string // the helper's executable, whose exec is not the command's
	attached  bool
	// started gives the observer the start events, at the command's
	// first exec.
	started func()

	procs   map[int32]*process
	threads map[int32]*thread
	// execAlias finds a thread by the tid it had before it exec'd as a
	// non-leader thread: its execve's records still carry that tid.
	execAlias map[int32]*thread

	// compat is the refusal of a run in which a process made an i386
	// system call; refuse, when set, ends the run at the first.
	compat *launch.CompatError
	refuse func()

	nextProc, nextThread uint32
	seq                  uint64
	monoStart, lastTime  time.Duration
	lost                 trace.Losses
}

func newAssembler(tab *systable.Table, obs launch.Observer, filter launch.ContentFilter, monoStart time.Duration) *assembler {
	a := &assembler{tab: tab, obs: obs, filter: filter, monoStart: monoStart, lastTime: monoStart,
		procs: make(map[int32]*process), threads: make(map[int32]*thread), execAlias: make(map[int32]*thread)}
	a.started = func() {}
	return a
}

// command prepares for the command started as pid: its fd table and cwd
// as the helper holds them before its exec, and its start events.
func (a *assembler) command(pid int32, fds *systable.FDTable[string], cwd string, start []trace.StartEvent) {
	a.root = pid
	p := &process{pid: pid, fds: fds, cwd: cwd}
	a.procs[pid] = p
	a.addThread(p, pid, nil)
	a.started = func() {
		a.obs.Start(start)
		a.started = func() {}
	}
}

// record handles one record. Its call and chunk are the probe's, reused
// for the next record (bpf.Probe.ReadBatch): what is kept is copied.
func (a *assembler) record(r *bpf.Record) {
	switch {
	case r.Call != nil:
		a.call(r.Call)
	case r.Chunk != nil:
		a.chunk(r.Chunk)
	case r.Fork != nil:
		a.since(r.Fork.Time)
		a.fork(r.Fork)
	case r.Exec != nil:
		a.since(r.Exec.Time)
		a.execd(r.Exec)
	case r.Exit != nil:
		a.since(r.Exit.Time)
		a.exited(r.Exit)
	}
}

// finish completes the calls still waiting for chunks, after the last
// record.
func (a *assembler) finish() {
	tids := make([]int32, 0, len(a.threads))
	for tid := range a.threads {
		tids = append(tids, tid)
	}
	slices.Sort(tids)
	for _, tid := range tids {
		a.complete(a.threads[tid])
		a.flushExec(a.threads[tid])
	}
}

// counts returns the processes and threads shown and the calls recorded.
func (a *assembler) counts() (procs, threads uint32, calls uint64) {
	return a.nextProc, a.nextThread, a.seq
}
