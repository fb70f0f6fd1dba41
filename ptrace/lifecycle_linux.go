package ptrace

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// spawn handles a clone, fork or vfork event of t.
func (s *session) spawn(t *task, event int) error {
	msg, err := eventMsg(t.tid)
	if err != nil {
		return err
	}
	if !stillAtEvent(t.tid, event) {
		// Killed since the report: msg is t's exit code. A new thread
		// dies with its group, but a new process lives on.
		if msg = uint64(s.lostChild(t, event)); msg == 0 {
			return errLeftStop
		}
	}
	newTid := int(msg)
	flags := s.cloneFlags(t, event)
	share := systable.CloneSharing(flags)
	var nt *task
	switch {
	case t.hidden() || !t.proc.execd:
		// A thread of the helper's Go runtime: it dies at the exec.
		nt = &task{tid: newTid, proc: &proc{pid: t.proc.pid}, fresh: true}
	case event == unix.PTRACE_EVENT_CLONE && (share.Thread || launch.Tgid(newTid) == t.proc.pid):
		p := t.proc
		p.threads++
		p.live++
		s.threads++
		nt = &task{tid: newTid, proc: p, id: s.threads, fresh: true}
		s.emit(&trace.ProcEvent{Kind: trace.SpawnThread, Proc: p.id, Thread: nt.id, PID: int32(p.pid), TID: int32(newTid),
			Parent: p.id, ParentThread: t.id, Index: p.threads + 1, CloneFlags: flags})
	default:
		parent := t.proc
		parent.children++
		s.procs++
		s.threads++
		np := &proc{pid: newTid, id: s.procs, parent: parent.id, live: 1, exe: parent.exe, execd: true}
		np.fds = parent.fds.Fork(flags)
		if share.FS {
			np.fs = parent.fs
		} else {
			np.fs = &fsState{cwd: parent.fs.cwd}
		}
		nt = &task{tid: newTid, proc: np, id: s.threads, fresh: true}
		s.watch.Add(newTid)
		s.emit(&trace.ProcEvent{Kind: trace.Spawn, Proc: np.id, Thread: nt.id, PID: int32(newTid), TID: int32(newTid),
			Parent: parent.id, ParentThread: t.id, Index: parent.children, CloneFlags: flags})
	}
	s.tasks[newTid] = nt
	if err := s.adoptEarly(nt); err != nil {
		return err
	}
	return s.resume(t, 0)
}

// cloneFlags returns the flags of the call that created a task, read
// at its clone event: the first argument when the table says it is a
// flags argument (clone), else the first word of the struct it points to
// (clone3), or what fork and vfork imply.
func (s *session) cloneFlags(t *task, event int) uint64 {
	switch event {
	case unix.PTRACE_EVENT_FORK:
		return systable.ForkFlags
	case unix.PTRACE_EVENT_VFORK:
		return systable.VforkFlags
	}
	var r regs
	if getRegs(t.tid, &r) != nil {
		return 0
	}
	row, args := s.table.ByNr(sysNr(&r)), sysArgs(&r)
	if len(row.Args) > 0 && row.Args[0].Kind == systable.Flags {
		return args[0]
	}
	if v, err := (memReader{pid: t.tid}).readWord(args[0]); err == nil {
		return v
	}
	return 0
}

// exec handles the exec event: the process has a new image.
func (s *session) exec(t *task) error {
	former, err := eventMsg(t.tid)
	if err != nil {
		return err
	}
	if !stillAtEvent(t.tid, unix.PTRACE_EVENT_EXEC) {
		// Killed since the report: former is an exit code. A thread that
		// exec'd from another tid has that tid no more.
		s.forgetVanished(t.proc)
		return errLeftStop
	}
	p := t.proc
	var r regs
	var img *execImage
	var auxv []auxvEntry
	if err := getRegs(t.tid, &r); err == nil {
		if runs32Bit(&r) {
			// Its initial stack and every call it makes are i386 ones.
			p.exe, _ = os.Readlink(fmt.Sprintf("/proc/%d/exe", p.pid))
			return compatError(t, launch.CompatProgram)
		}
		img, auxv, _ = readInitialStack(memReader{pid: t.tid}, r.Rsp)
	}
	if img == nil {
		img = readExecImage(p.pid)
	}
	if !p.execd && img.isHelper() {
		// The helper's own exec of envbisect: the seize can come while the
		// helper is still inside that execve (a vfork parent is released
		// before the exec event). Nothing of the command has run yet.
		return s.resume(t, 0)
	}
	if int(former) != t.tid {
		// A non-leader thread exec'd and took over the leader's tid. The
		// task we have under this tid is the old leader, now gone.
		if execer := s.tasks[int(former)]; execer != nil {
			delete(s.tasks, int(former))
			execer.tid = t.tid
			s.tasks[t.tid] = execer
			t = execer
		}
	}
	// Every other thread of the process is gone.
	for tid, o := range s.tasks {
		if o.proc == p && o != t {
			delete(s.tasks, tid)
			p.live--
			if !o.hidden() && p.execd {
				s.emit(&trace.ProcEvent{Kind: trace.ExitThread, Proc: p.id, Thread: o.id, PID: int32(p.pid), TID: int32(tid)})
			}
		}
	}
	first := !p.execd
	p.execd = true
	p.exe, _ = os.Readlink(fmt.Sprintf("/proc/%d/exe", p.pid))
	p.exe = s.redir.programPath(p.exe) // an image exec'd from the scratch area
	if t.live != nil && t.replay.exec != nil && t.replay.exec.execing {
		// A served exec: the program runs the recorded image, which
		// /proc/PID/exe names as a memfd ("/memfd:/usr/bin/x (deleted)").
		p.exe = t.replay.exec.exe
	}
	t.exec = img
	if msg := launch.UnhonouredPrivilege(p.pid); msg != "" {
		s.warnOnce(msg) // setuid, setgid, file capabilities withheld
	}
	if s.cfg.NoVDSO {
		if err := hideVDSO(t.tid, auxv); err != nil {
			return fmt.Errorf("hide the vDSO from %s: %w", p.exe, err)
		}
	}
	ev := &trace.ProcEvent{Kind: trace.Exec, Proc: p.id, Thread: t.id, PID: int32(p.pid), TID: int32(t.tid), Exe: p.exe,
		Argv: splitStrings(t.exec.argv)}
	// The exec closed the close-on-exec fds and unshared the table.
	p.fds = rereadFDTable(p.fds, p.pid)
	if first {
		if s.cfg.Sandbox != nil && s.cfg.View != nil {
			// The command is in its sandbox now: keep the view for a
			// check after the run.
			if ns, err := os.Open(fmt.Sprintf("/proc/%d/ns/mnt", p.pid)); err == nil {
				s.cfg.View(ns)
			}
		}
		p.fs.cwd, _ = os.Readlink(fmt.Sprintf("/proc/%d/cwd", p.pid))
		s.cfg.Observer.Start(launch.ReadStartEvents(&s.cfg.Config, p.pid))
	}
	s.emit(ev)
	return s.resume(t, 0)
}

// gone handles a task's death.
func (s *session) gone(t *task, ws unix.WaitStatus) {
	p := t.proc
	delete(s.tasks, t.tid)
	p.live--
	code, sig := 0, 0
	if ws.Exited() {
		code = ws.ExitStatus()
	} else {
		sig = int(ws.Signal())
		code = 128 + sig
	}
	if t.tid == p.pid {
		s.watch.Remove(p.pid)
	}
	if p == s.root && t.tid == p.pid {
		s.result.ExitCode, s.result.Signal = code, sig
		if s.cfg.Watch.EndWithRoot && !s.killed {
			// Background children the command left behind end with it,
			// in record as in locate's runs; the user hears which.
			s.killed = true
			s.result.LeftRunning = s.leftRunning()
			s.killTasks()
			if len(s.result.LeftRunning) > 0 && s.cfg.Warn != nil {
				s.cfg.Warn(launch.LeftRunningMessage(s.result.LeftRunning))
			}
		}
	}
	if t.hidden() || !p.execd {
		return
	}
	if t.tid == p.pid {
		s.emit(&trace.ProcEvent{Kind: trace.Exit, Proc: p.id, Thread: t.id, PID: int32(p.pid), TID: int32(t.tid), Status: code, Signal: sig})
		return
	}
	s.emit(&trace.ProcEvent{Kind: trace.ExitThread, Proc: p.id, Thread: t.id, PID: int32(p.pid), TID: int32(t.tid), Status: code, Signal: sig})
}

func splitStrings(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	all := string(b) // one copy; the strings share it
	all = strings.TrimSuffix(all, "\x00")
	return strings.Split(all, "\x00")
}

// leftRunning lists the executables of the processes still traced when
// the command's own process exited (sorted, each once): what the run
// ends with it.
func (s *session) leftRunning() []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range s.tasks {
		p := t.proc
		if p == nil || p == s.root || t.hidden() || seen[p.exe] {
			continue
		}
		seen[p.exe] = true
		out = append(out, p.exe)
	}
	slices.Sort(out)
	return out
}
