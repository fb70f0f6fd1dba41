package ptrace

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// Tasks the tracer hears of before their creation.
//
// A new task is auto-attached, and its stops can reach wait4 before the
// clone, fork or vfork event of its parent that names it. Its stop is
// then left in place and kept until that event (spawn adopts it). When
// the parent is killed inside the call, the event never comes at all (a
// thread with a fatal signal pending does not stop), and a new thread of
// a killed thread group goes straight to its PTRACE_EVENT_EXIT stop: it
// is let go at once, or it would stay in that stop forever and its
// process with it, a zombie leader the run waits for. Should its
// creation event come after all, the task is adopted as running, or as
// dead when its death came first. A process whose fork or vfork event
// was reported but whose pid the event message no longer gives (its
// parent killed since the report) is found among the parent's children
// in /proc and adopted as the event would have named it (lostChild).

// earlyTask is what the tracer knows of a task whose creation it has not
// seen yet.
type earlyTask struct {
	// stopped: the task waits in the stop ws, for the tracer to handle
	// when it knows the task.
	stopped bool
	ws      unix.WaitStatus
	// dead: it died, with status, before its creation was seen.
	dead   bool
	status unix.WaitStatus
}

// unseen handles wait4's report about tid, a task the tracer does not
// know: a new task ahead of its creation event, the check command, or a
// thread that an exec in its process ended.
func (s *session) unseen(tid int, ws unix.WaitStatus) {
	e := s.early[tid]
	switch {
	case ws.Stopped() && int(ws>>16)&0xff == unix.PTRACE_EVENT_EXIT:
		// Killed before its creation was reported, maybe never to be:
		// nothing of it is recorded, and it must not wait for us.
		resumeCont(tid, 0) // ESRCH: killed out of the stop already
		s.early[tid] = &earlyTask{}
	case ws.Stopped():
		s.early[tid] = &earlyTask{stopped: true, ws: ws}
	case e != nil:
		e.dead, e.status = true, ws
	default:
		s.watch.Exited(tid, ws) // the check command
	}
}

// adoptEarly gives nt, a task whose creation event the tracer is
// handling, what came of it before: its stop, handled now, or its death.
func (s *session) adoptEarly(nt *task) error {
	e := s.early[nt.tid]
	if e == nil {
		return nil
	}
	delete(s.early, nt.tid)
	switch {
	case e.stopped:
		if err := s.stopped(nt, e.ws); err != nil && !leftStop(nt.tid, err) {
			return &stopError{stop: "the first stop of new task " + strconv.Itoa(nt.tid) + ", " + stopName(e.ws, false), err: err}
		}
	case e.dead:
		s.gone(nt, e.status)
	}
	return nil
}

// killTasks SIGKILLs every traced task, those whose creation was not
// seen yet included.
func (s *session) killTasks() {
	for tid := range s.tasks {
		unix.Kill(tid, unix.SIGKILL)
	}
	for tid, e := range s.early {
		if !e.dead {
			unix.Kill(tid, unix.SIGKILL)
		}
	}
}

// lostChild returns the process a fork or vfork event of t named when
// its message can no longer be read (t was killed after the report, and
// the message is its exit code now): the one child of t the tracer does
// not follow yet, from /proc, where it stays until t has died. 0: a
// clone event (a new thread dies with its killed group), or no such
// child, or more than one.
func (s *session) lostChild(t *task, event int) int {
	if event != unix.PTRACE_EVENT_FORK && event != unix.PTRACE_EVENT_VFORK {
		return 0
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(t.proc.pid) + "/task/" + strconv.Itoa(t.tid) + "/children")
	if err != nil {
		return 0
	}
	found := 0
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil || s.tasks[pid] != nil {
			continue
		}
		if found != 0 {
			return 0
		}
		found = pid
	}
	return found
}

// forgetVanished stops following the threads of p whose tid no longer
// exists: at an exec event whose message could not be read (p killed
// since the report), the thread that exec'd from another tid has the
// leader's now, and no report will ever name its old one. Threads that
// died and wait to be reaped still exist; wait4 reports them.
func (s *session) forgetVanished(p *proc) {
	for tid, o := range s.tasks {
		if o.proc != p || tid == p.pid {
			continue
		}
		if _, err := os.Stat("/proc/" + strconv.Itoa(p.pid) + "/task/" + strconv.Itoa(tid)); !os.IsNotExist(err) {
			continue
		}
		delete(s.tasks, tid)
		p.live--
		if !o.hidden() && p.execd {
			s.emit(&trace.ProcEvent{Kind: trace.ExitThread, Proc: p.id, Thread: o.id, PID: int32(p.pid), TID: int32(tid)})
		}
	}
}
