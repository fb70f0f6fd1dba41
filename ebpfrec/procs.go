package ebpfrec

import (
	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// process is one traced process, as the fork, exec and exit records
// describe it.
type process struct {
	pid   int32
	id    uint32 // logical, 0 until the process is shown
	execd bool   // the command's image is in: its calls are recorded
	exe   string // the executable it runs, as its exec named it
	fds   *systable.FDTable[string]
	cwd   string
	// children and threadsMade number the process's spawns (lineage).
	children, threadsMade uint32
	live                  int
}

// thread is one traced task.
type thread struct {
	tid  int32
	id   uint32 // logical, 0 while its process is not execd
	proc *process
	// tseq numbers the thread's calls in the trace; lastBPF is the last
	// call number the probe gave it, whose gaps are lost calls.
	tseq, lastBPF uint64
	pending       *pendingCall // &slot while a call waits for its chunks
	slot          pendingCall
	// early holds chunks that came before their call record: buffers
	// read at entry (execve), keyed by the probe's call number.
	early map[uint64][]*bpf.Chunk
	// exec is the exec event waiting for the execve call that made it,
	// which brings its argv.
	exec *trace.ProcEvent
}

// threadFor returns the thread tid, creating it in process tgid when no
// fork record announced it (the record was lost, or the task was running
// before the recording began).
func (a *assembler) threadFor(tid, tgid uint32) *thread {
	if t := a.thread(tid); t != nil {
		return t
	}
	if tgid == 0 {
		return nil
	}
	p := a.procs[int32(tgid)]
	if p == nil {
		p = &process{pid: int32(tgid), fds: systable.NewFDTable[string](), execd: a.attached}
		if a.attached {
			p.fds = readFDTable(int(tgid), nil)
			p.cwd = readCwd(int(tgid))
		}
		a.procs[p.pid] = p
		a.showProc(p, nil, nil)
		t := a.addThread(p, int32(tid), nil)
		if p.id != 0 {
			// An observed process found running: its first thread is
			// the one its spawn event named (as fork does).
			t.id = a.nextThread
		}
		return t
	}
	return a.addThread(p, int32(tid), nil)
}

// thread returns the known thread tid: by its tid, or by the tid it had
// before it exec'd as a non-leader thread.
func (a *assembler) thread(tid uint32) *thread {
	if t := a.threads[int32(tid)]; t != nil {
		return t
	}
	return a.execAlias[int32(tid)]
}

// addThread adds task tid to p; by is the thread that created it (nil
// for the first thread of a process or one found without a fork record).
func (a *assembler) addThread(p *process, tid int32, by *thread) *thread {
	t := &thread{tid: tid, proc: p}
	a.threads[tid] = t
	p.live++
	if p.execd && p.id != 0 && p.live > 1 {
		a.nextThread++
		t.id = a.nextThread
		p.threadsMade++
		ev := &trace.ProcEvent{Kind: trace.SpawnThread, Proc: p.id, Thread: t.id, PID: p.pid, TID: tid, Index: p.threadsMade}
		if by != nil {
			ev.Parent, ev.ParentThread = p.id, by.id
		}
		a.emitProc(ev)
	}
	return t
}

// showProc numbers a process that is recorded and emits its spawn.
func (a *assembler) showProc(p *process, parent *process, by *thread) {
	if !p.execd || p.id != 0 {
		return
	}
	a.nextProc++
	p.id = a.nextProc
	a.nextThread++
	ev := &trace.ProcEvent{Kind: trace.Spawn, Proc: p.id, Thread: a.nextThread, PID: p.pid, TID: p.pid}
	if parent != nil && parent.id != 0 {
		parent.children++
		ev.Parent, ev.Index = parent.id, parent.children
		if by != nil {
			ev.ParentThread = by.id
		}
	} else {
		ev.Index = 1
	}
	a.emitProc(ev)
}

// fork handles a sched_process_fork record.
func (a *assembler) fork(r *bpf.Fork) {
	parent := a.threadFor(r.ParentTID, r.ParentTGID)
	if parent == nil {
		return
	}
	if a.threads[int32(r.ChildTID)] != nil {
		return // seen already (a call of the child came first)
	}
	if r.Thread {
		a.addThread(parent.proc, int32(r.ChildTID), parent)
		return
	}
	pp := parent.proc
	// The fork record does not say the clone's flags (which come with
	// the clone's call record, later): the child gets a copy of the
	// table, as without CLONE_FILES.
	p := &process{pid: int32(r.ChildTGID), fds: pp.fds.Copy(), cwd: pp.cwd, execd: pp.execd, exe: pp.exe}
	a.procs[p.pid] = p
	a.showProc(p, pp, parent)
	t := a.addThread(p, int32(r.ChildTID), nil)
	if p.id != 0 {
		t.id = a.nextThread // the spawn event named it
	}
}

// execd handles a sched_process_exec record: the exec event is emitted
// with the execve call that made it, which follows.
func (a *assembler) execd(r *bpf.Exec) {
	t := a.threads[int32(r.OldTID)]
	if t == nil {
		t = a.threadFor(r.TID, r.TGID)
		if t == nil {
			return
		}
	}
	p := t.proc
	if r.OldTID != r.TID {
		// A thread other than the leader exec'd: it takes the leader's
		// tid. Its execve's call and chunks still carry the old one.
		delete(a.threads, t.tid)
		if old := a.threads[int32(r.TID)]; old != nil && old != t {
			old.proc.live--
		}
		a.execAlias[t.tid] = t
		t.tid = int32(r.TID)
		a.threads[t.tid] = t
	}
	first := !p.execd
	if first && (p.pid != a.root || r.Filename == a.helperExe) {
		// Not the command's image: the helper's own exec, which may
		// still have been under way when the probe began.
		a.helperExe = ""
		return
	}
	// The exec closed the close-on-exec fds and unshared the table.
	p.fds = p.fds.Exec()
	if first {
		p.execd = true
		a.showProc(p, nil, nil)
		t.id = a.nextThread
		p.live = 1
		a.started()
	}
	exe := launch.ResolvePath(p.cwd, r.Filename)
	p.exe = exe
	t.exec = &trace.ProcEvent{Kind: trace.Exec, Proc: p.id, Thread: t.id, PID: p.pid, TID: t.tid, Exe: exe}
}

// exited handles a sched_process_exit record.
func (a *assembler) exited(r *bpf.Exit) {
	t := a.threads[int32(r.TID)]
	if t == nil {
		return
	}
	a.complete(t)
	a.flushExec(t)
	delete(a.threads, t.tid)
	p := t.proc
	p.live--
	code, sig := shellStatus(r.Code)
	last := r.GroupDead || p.live <= 0
	if last {
		delete(a.procs, p.pid)
	}
	if !p.execd || t.id == 0 {
		return
	}
	kind := trace.ExitThread
	if last {
		kind = trace.Exit
	}
	a.emitProc(&trace.ProcEvent{Kind: kind, Proc: p.id, Thread: t.id, PID: p.pid, TID: t.tid, Status: code, Signal: sig})
}

// shellStatus turns a kernel exit code (wait status) into the status a
// shell reports and the killing signal.
func shellStatus(code uint32) (int, int) {
	if sig := int(code & 0x7f); sig != 0 {
		return 128 + sig, sig
	}
	return int(code>>8) & 0xff, 0
}
