package ptrace

import (
	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// seccompStop: a call the filter sends to us is entering. Nothing is
// read here: x86-64 keeps the argument registers and orig_rax intact until
// the call's exit stop, where one GETREGS gives number, arguments and
// result, and the memory the call read is still in place. Reading nothing
// at entry saves a ptrace request per call, a sixth of the tracer's work.
func (s *session) seccompStop(t *task) error {
	if s.denyTags {
		if errno, err := s.deniedBy(t); err != nil || errno != 0 {
			if err != nil {
				return err
			}
			return s.deniedStop(t, errno)
		}
	}
	if t.hidden() {
		return resumeCont(t.tid, 0)
	}
	if s.cfg.Replayer != nil && t.proc.execd {
		var r regs
		if err := getRegs(t.tid, &r); err != nil {
			return err
		}
		return s.replayEnter(t, &r)
	}
	s.beginCall(t, false)
	return resumeSyscall(t.tid, 0)
}

// beginCall notes that t entered a call; skip: the call is not recorded.
func (s *session) beginCall(t *task, skip bool) {
	t.inSyscall, t.skip = true, skip
	t.enter = s.since()
	t.exec = nil
}

// syscallStop: an exit stop, or in fallback mode also an entry stop.
func (s *session) syscallStop(t *task) error {
	var r regs
	if err := getRegs(t.tid, &r); err != nil {
		return err
	}
	if !t.inSyscall {
		if s.seccomp || int64(r.Rax) != -int64(unix.ENOSYS) {
			// Not an entry (a new child's return from fork): let it go on.
			return s.resume(t, 0)
		}
		if arch, nr, ok := syscallInfoArch(t.tid); ok && arch != nativeAuditArch {
			// No filter traps other ABIs in this mode (compat_linux.go).
			return compatError(t, launch.CompatCall(auditArchName(arch), int(nr)))
		}
		skip := t.hidden() || s.table.ByNr(sysNr(&r)).NoStop || s.answerSkips(sysNr(&r))
		if s.cfg.Replayer != nil && !skip && t.proc.execd {
			return s.replayEnter(t, &r)
		}
		s.beginCall(t, skip)
		return resumeSyscall(t.tid, 0)
	}
	if t.live != nil {
		t.inSyscall = false
		return s.replayExit(t, &r)
	}
	t.inSyscall = false
	if t.skip || t.hidden() || !t.proc.execd {
		// Not recorded: a NoStop call (fallback mode), or the helper's
		// own calls and failed execs before the command's image is in.
		return s.resume(t, 0)
	}
	c, row := s.newCall(t, &r)
	c.Ret = sysRet(&r)
	c.Exit = s.since()
	execd := t.exec != nil
	if execd {
		// A successful exec: the old address space is gone, and what the
		// call passed was read from the new image at the exec event.
		c.Mem, t.exec = t.exec.mems(row), nil
	} else if !row.Unknown {
		s.cap.capture(memReader{pid: t.tid}, row, c, true)
	}
	s.account(t, row, c)
	if s.cfg.Answering != nil && !execd && !row.Unknown {
		if err := s.answer(t, row, c); err != nil {
			return err
		}
	}
	if s.files != nil && !row.Unknown {
		if execd {
			s.files.keepExec(t, c)
		} else {
			s.files.keepOpened(t, row, c)
			s.files.keepStated(t, row, c)
		}
	}
	s.finish(t, c)
	return s.resume(t, 0)
}

// exitStop handles PTRACE_EVENT_EXIT: t is about to die with its
// registers intact. A call in flight is recorded as not returning: exit
// and exit_group, or a call the thread was killed in.
func (s *session) exitStop(t *task) error {
	if t.live != nil {
		// A semi-replay run: the Replayer saw the call enter; it never
		// returns (exit, exit_group, or killed in it).
		t.live, t.dec, t.replay, t.inSyscall = nil, Decision{}, replayState{}, false
		return resumeCont(t.tid, 0)
	}
	if t.inSyscall && !t.skip && !t.hidden() && t.proc.execd {
		var r regs
		if err := getRegs(t.tid, &r); err == nil && sysNr(&r) >= 0 {
			c, row := s.newCall(t, &r)
			c.NoReturn = true
			if !row.Unknown {
				s.cap.capture(memReader{pid: t.tid}, row, c, false)
			}
			s.account(t, row, c)
			s.finish(t, c)
		}
	}
	t.inSyscall = false
	return resumeCont(t.tid, 0)
}

// newCall starts the record of the call t is in, from its registers.
func (s *session) newCall(t *task, r *regs) (*trace.Call, *systable.Syscall) {
	nr := sysNr(r)
	return &trace.Call{
		Proc: t.proc.id, Thread: t.id,
		PID: int32(t.proc.pid), TID: int32(t.tid),
		Nr: uint32(nr), Args: sysArgs(r), Enter: t.enter,
	}, s.table.ByNr(nr)
}

// finish numbers a completed call and hands it on.
func (s *session) finish(t *task, c *trace.Call) {
	s.seq++
	c.Seq = s.seq
	t.tseq++
	c.TSeq = t.tseq
	s.cfg.Observer.Event(trace.Event{Call: c})
}

func (s *session) emit(ev *trace.ProcEvent) {
	ev.Seq = s.seq
	ev.Time = s.since()
	s.cfg.Observer.Event(trace.Event{Proc: ev})
}
