package tracer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// ErrPtraceDenied is returned when the kernel refuses to let envbisect
// trace the command.
var ErrPtraceDenied = errors.New("ptrace not permitted: run as root or grant CAP_SYS_PTRACE; " +
	"if kernel.yama.ptrace_scope is 3, ptrace is disabled until reboot; " +
	"in a container, allow ptrace in its seccomp profile (docker run --cap-add SYS_PTRACE)")

// ExecError reports that the helper could not exec the command.
type ExecError struct {
	Code int // 127: not found, 126: found but not executable
	Msg  string
}

func (e *ExecError) Error() string { return e.Msg }

// BackendFor returns the backend a run will use: seccomp-accelerated
// where the kernel has seccomp filters and noSeccomp is false.
func BackendFor(noSeccomp bool) string {
	if !noSeccomp && seccomp.Supported() {
		return trace.BackendPtraceSeccomp
	}
	return trace.BackendPtrace
}

// session is one traced run. All its methods run on the tracer thread.
type session struct {
	cfg     Config
	table   *systable.Table
	cap     capturer
	excl    excluder
	seccomp bool
	start   time.Time

	tasks map[int]*task
	early map[int]unix.WaitStatus // stops of tasks whose creation we have not seen yet
	root  *proc

	procs, threads uint32
	seq, stops     uint64
	result         Result

	killAll   atomic.Bool
	killed    bool
	interrupt atomic.Bool
}

// Run starts cfg's command under the tracer and follows it until every
// traced process has exited. It returns the command's exit status; the
// events went to cfg.Observer as they happened.
func Run(cfg Config) (*Result, error) {
	if cfg.Table == nil || cfg.Observer == nil || len(cfg.Argv) == 0 {
		return nil, errors.New("tracer: Config needs Table, Observer and Argv")
	}
	excl, err := newExcluder(cfg.Exclude)
	if err != nil {
		return nil, err
	}
	s := &session{
		cfg:   cfg,
		table: cfg.Table,
		cap:   capturer{table: cfg.Table, max: cfg.MaxCapture},
		excl:  excl,
		tasks: make(map[int]*task),
		early: make(map[int]unix.WaitStatus),
	}
	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		// ptrace requests must all come from the thread that attached. The
		// thread is never unlocked: when this goroutine ends, the thread
		// exits with it, and by then no tracee is left.
		runtime.LockOSThread()
		res, err := s.run()
		done <- outcome{res, err}
	}()
	o := <-done
	return o.res, o.err
}

func (s *session) warn(msg string) {
	if s.cfg.Warn != nil {
		s.cfg.Warn(msg)
	}
}

func (s *session) run() (*Result, error) {
	allow := s.table.NoStop()
	s.seccomp = BackendFor(s.cfg.NoSeccomp) == trace.BackendPtraceSeccomp
	if !s.cfg.NoSeccomp && !s.seccomp {
		s.warn("seccomp filters are unavailable here: stopping at every system call (slower)")
	}
	s.result.Backend = trace.BackendPtrace
	s.result.Filtered = allow
	if s.seccomp {
		if err := checkFilter(allow); err != nil {
			return nil, err
		}
		s.result.Backend = trace.BackendPtraceSeccomp
	}
	pid, cfgW, errR, err := s.startHelper()
	if err != nil {
		return nil, err
	}
	defer errR.Close()
	s.start = time.Now()
	if s.cfg.CPU >= 0 {
		pinTracer(s.cfg.CPU)
	}
	if err := seize(pid); err != nil {
		cfgW.Close() // the helper reads EOF and exits
		var ws unix.WaitStatus
		unix.Wait4(pid, &ws, 0, nil)
		if err == unix.EPERM {
			return nil, ErrPtraceDenied
		}
		return nil, fmt.Errorf("ptrace seize of the helper (pid %d): %w", pid, err)
	}
	if !s.seccomp {
		// Without the filter nothing would stop the helper before its
		// exec, and its execve entry would go unseen: stop it now, and
		// the first stop resumes it with PTRACE_SYSCALL.
		if err := ptrace(unix.PTRACE_INTERRUPT, pid, 0, 0); err != nil {
			cfgW.Close()
			unix.Kill(pid, unix.SIGKILL)
			var ws unix.WaitStatus
			unix.Wait4(pid, &ws, unix.WALL, nil)
			return nil, fmt.Errorf("ptrace interrupt of the helper: %w", err)
		}
	}
	if err := s.sendHelperConfig(cfgW, allow); err != nil {
		unix.Kill(pid, unix.SIGKILL)
		var ws unix.WaitStatus
		unix.Wait4(pid, &ws, unix.WALL, nil)
		return nil, err
	}
	// Every ptrace stop sends the tracer a SIGCHLD, and handling it in the
	// Go runtime costs about as much as the rest of the stop. Ignored, it
	// is not even queued. SIG_IGN would also auto-reap exiting children,
	// but not traced ones, and every task we wait for is traced. This is
	// set only now, after the fork of the helper, so that the command does
	// not inherit it; while it is set, nothing else in envbisect may start
	// and wait for a child.
	if restore, err := ignoreSIGCHLD(); err == nil {
		defer restore()
	}
	s.procs, s.threads = 1, 1
	s.root = &proc{pid: pid, id: 1, live: 1, fds: newFDTable(), fs: &fsState{}}
	s.tasks[pid] = &task{tid: pid, proc: s.root, id: 1, fresh: !s.seccomp}
	s.emit(&trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1, PID: int32(pid), TID: int32(pid), Index: 1})

	stopSignals := s.forwardSignals(pid)
	defer stopSignals()
	if err := s.loop(); err != nil {
		s.killEverything()
		return nil, err
	}
	if !s.root.execd {
		msg, _ := io.ReadAll(errR)
		return nil, helperError(string(msg), s.result.ExitCode)
	}
	s.result.Calls = s.seq
	s.result.Procs = s.procs
	s.result.Threads = s.threads
	s.result.Stops = s.stops
	s.result.Interrupted = s.interrupt.Load()
	return &s.result, nil
}

// helperError turns the helper's report ("127 exec /x: no such file")
// into an ExecError.
func helperError(msg string, status int) error {
	code, text, ok := strings.Cut(msg, " ")
	if n, err := strconv.Atoi(code); ok && err == nil {
		return &ExecError{Code: n, Msg: text}
	}
	return &ExecError{Code: 126, Msg: fmt.Sprintf("the command did not start (helper exited with status %d)", status)}
}

// startHelper starts envbisect's own binary as the helper, stopped on a
// read of its configuration pipe.
func (s *session) startHelper() (pid int, cfgW, errR *os.File, err error) {
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		return 0, nil, nil, fmt.Errorf("helper pipe: %w", err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		cfgR.Close()
		cfgW.Close()
		return 0, nil, nil, fmt.Errorf("helper pipe: %w", err)
	}
	self, err := os.Executable()
	if err != nil {
		self = "/proc/self/exe"
	}
	std := func(f, def *os.File) uintptr {
		if f != nil {
			return f.Fd()
		}
		return def.Fd()
	}
	attr := &syscall.ProcAttr{
		Dir: s.cfg.Dir,
		Env: append(append([]string{}, s.cfg.Env...), helperEnv+"="+helperProtocol),
		Files: []uintptr{
			std(s.cfg.Stdin, os.Stdin), std(s.cfg.Stdout, os.Stdout), std(s.cfg.Stderr, os.Stderr),
			cfgR.Fd(), errW.Fd(),
		},
	}
	pid, err = syscall.ForkExec(self, []string{"envbisect-helper"}, attr)
	cfgR.Close()
	errW.Close()
	if err != nil {
		cfgW.Close()
		errR.Close()
		return 0, nil, nil, fmt.Errorf("start helper %s: %w", self, err)
	}
	return pid, cfgW, errR, nil
}

func (s *session) sendHelperConfig(w *os.File, allow []string) error {
	hc := helperConfig{Path: s.cfg.Path, Argv: s.cfg.Argv, Env: s.cfg.Env, ASLR: s.cfg.ASLR, NoPrivs: os.Geteuid() != 0, CPU: s.cfg.CPU}
	if s.seccomp {
		hc.Seccomp, hc.Allow = true, allow
	}
	b, err := json.Marshal(hc)
	if err == nil {
		_, err = w.Write(b)
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("configure helper: %w", err)
	}
	return nil
}

// forwardSignals passes the first signal envbisect receives on to the
// command and makes a second one kill every traced process. A Ctrl-C
// typed at the terminal already reached the command (it is in our
// foreground process group), so it is not sent twice.
func (s *session) forwardSignals(pid int) (stop func()) {
	quit := make(chan struct{})
	go func() {
		n := 0
		for {
			select {
			case <-quit:
				return
			case sig := <-s.cfg.Interrupt:
				n++
				s.interrupt.Store(true)
				if n == 1 {
					if sig == os.Interrupt && foregroundTTY() {
						continue
					}
					if ss, ok := sig.(syscall.Signal); ok {
						unix.Kill(pid, ss)
					}
					continue
				}
				s.killAll.Store(true)
				unix.Kill(pid, unix.SIGKILL)
			}
		}
	}()
	return func() { close(quit) }
}

// foregroundTTY reports whether envbisect's stdin is a terminal whose
// foreground process group is ours: then a Ctrl-C went to the whole group.
func foregroundTTY() bool {
	pgrp, err := unix.IoctlGetInt(0, unix.TIOCGPGRP)
	return err == nil && pgrp == unix.Getpgrp()
}

// killEverything SIGKILLs every task still traced and reaps them.
func (s *session) killEverything() {
	for tid := range s.tasks {
		unix.Kill(tid, unix.SIGKILL)
	}
	for len(s.tasks) > 0 {
		var ws unix.WaitStatus
		tid, err := unix.Wait4(-1, &ws, unix.WALL, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return
		}
		if ws.Exited() || ws.Signaled() {
			delete(s.tasks, tid)
		}
	}
}

// loop waits for stops until no traced task is left.
func (s *session) loop() error {
	for len(s.tasks) > 0 {
		var ws unix.WaitStatus
		tid, err := unix.Wait4(-1, &ws, unix.WALL, nil)
		if err == unix.EINTR {
			continue
		}
		if err == unix.ECHILD {
			return nil
		}
		if err != nil {
			return fmt.Errorf("wait for traced processes: %w", err)
		}
		s.stops++
		if s.killAll.Load() && !s.killed {
			s.killed = true
			for tid := range s.tasks {
				unix.Kill(tid, unix.SIGKILL)
			}
		}
		t := s.tasks[tid]
		if t == nil {
			if ws.Stopped() {
				s.early[tid] = ws
			}
			continue
		}
		if ws.Exited() || ws.Signaled() {
			s.gone(t, ws)
			continue
		}
		if !ws.Stopped() {
			continue
		}
		if err := s.stopped(t, ws); err != nil && err != unix.ESRCH {
			return fmt.Errorf("trace %d: %w", tid, err)
		}
	}
	return nil
}

// stopped dispatches one ptrace stop.
func (s *session) stopped(t *task, ws unix.WaitStatus) error {
	sig := int(ws>>8) & 0xff
	event := int(ws>>16) & 0xff
	switch {
	case sig == int(unix.SIGTRAP)|0x80:
		return s.syscallStop(t)
	case event == unix.PTRACE_EVENT_SECCOMP:
		return s.seccompStop(t)
	case event == unix.PTRACE_EVENT_CLONE, event == unix.PTRACE_EVENT_FORK, event == unix.PTRACE_EVENT_VFORK:
		return s.spawn(t, event)
	case event == unix.PTRACE_EVENT_EXEC:
		return s.exec(t)
	case event == unix.PTRACE_EVENT_EXIT:
		return s.exitStop(t)
	case event == unix.PTRACE_EVENT_STOP:
		if t.fresh {
			t.fresh = false
			return s.resume(t, 0)
		}
		switch unix.Signal(sig) {
		case unix.SIGSTOP, unix.SIGTSTP, unix.SIGTTIN, unix.SIGTTOU:
			return listen(t.tid) // group-stop: stay stopped, keep reporting
		}
		return s.resume(t, 0)
	case sig == int(unix.SIGTRAP) && event != 0:
		return s.resume(t, 0)
	default:
		t.fresh = false
		return s.resume(t, sig) // signal-delivery stop: deliver it
	}
}

// resume lets t run to its next stop of interest.
func (s *session) resume(t *task, sig int) error {
	if !s.seccomp || t.inSyscall {
		return resumeSyscall(t.tid, sig)
	}
	return resumeCont(t.tid, sig)
}

func (s *session) since() int64 { return int64(time.Since(s.start)) }

// seccompStop: a call the filter sends to us is entering. Nothing is
// read here: x86-64 keeps the argument registers and orig_rax intact until
// the call's exit stop, where one GETREGS gives number, arguments and
// result, and the memory the call read is still in place. Reading nothing
// at entry saves a ptrace request per call, a sixth of the tracer's work.
func (s *session) seccompStop(t *task) error {
	if t.hidden() {
		return resumeCont(t.tid, 0)
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
		s.beginCall(t, t.hidden() || s.table.ByNr(sysNr(&r)).NoStop)
		return resumeSyscall(t.tid, 0)
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
	if t.exec != nil {
		// A successful exec: the old address space is gone, and what the
		// call passed was read from the new image at the exec event.
		c.Mem, t.exec = t.exec.mems(row), nil
	} else if !row.Unknown {
		s.cap.capture(memReader{pid: t.tid}, row, c, true)
	}
	s.account(t, row, c)
	s.finish(t, c)
	return s.resume(t, 0)
}

// exitStop handles PTRACE_EVENT_EXIT: t is about to die with its
// registers intact. A call in flight is recorded as not returning: exit
// and exit_group, or a call the thread was killed in.
func (s *session) exitStop(t *task) error {
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

// spawn handles a clone, fork or vfork event of t.
func (s *session) spawn(t *task, event int) error {
	msg, err := eventMsg(t.tid)
	if err != nil {
		return err
	}
	newTid := int(msg)
	flags := s.cloneFlags(t, event)
	var nt *task
	switch {
	case t.hidden() || !t.proc.execd:
		// A thread of the helper's Go runtime: it dies at the exec.
		nt = &task{tid: newTid, proc: &proc{pid: t.proc.pid}, fresh: true}
	case event == unix.PTRACE_EVENT_CLONE && (flags&unix.CLONE_THREAD != 0 || tgid(newTid) == t.proc.pid):
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
		if flags&unix.CLONE_FILES != 0 {
			np.fds = parent.fds
		} else {
			np.fds = parent.fds.clone()
		}
		if flags&unix.CLONE_FS != 0 {
			np.fs = parent.fs
		} else {
			np.fs = &fsState{cwd: parent.fs.cwd}
		}
		nt = &task{tid: newTid, proc: np, id: s.threads, fresh: true}
		s.emit(&trace.ProcEvent{Kind: trace.Spawn, Proc: np.id, Thread: nt.id, PID: int32(newTid), TID: int32(newTid),
			Parent: parent.id, ParentThread: t.id, Index: parent.children, CloneFlags: flags})
	}
	s.tasks[newTid] = nt
	if ws, ok := s.early[newTid]; ok {
		delete(s.early, newTid)
		if err := s.stopped(nt, ws); err != nil && err != unix.ESRCH {
			return err
		}
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
		return uint64(unix.SIGCHLD)
	case unix.PTRACE_EVENT_VFORK:
		return unix.CLONE_VM | unix.CLONE_VFORK | uint64(unix.SIGCHLD)
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
	p := t.proc
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
	t.exec = nil
	var r regs
	if err := getRegs(t.tid, &r); err == nil {
		var auxv []auxvEntry
		t.exec, auxv, _ = readInitialStack(memReader{pid: t.tid}, r.Rsp)
		if s.cfg.NoVDSO {
			if err := hideVDSO(t.tid, auxv); err != nil {
				return fmt.Errorf("hide the vDSO from %s: %w", p.exe, err)
			}
		}
	}
	if t.exec == nil {
		t.exec = readExecImage(p.pid)
	}
	ev := &trace.ProcEvent{Kind: trace.Exec, Proc: p.id, Thread: t.id, PID: int32(p.pid), TID: int32(t.tid), Exe: p.exe,
		Argv: splitStrings(t.exec.argv)}
	// The exec closed the close-on-exec fds and unshared the table.
	p.fds = p.fds.reread(p.pid)
	if first {
		p.fs.cwd, _ = os.Readlink(fmt.Sprintf("/proc/%d/cwd", p.pid))
		s.cfg.Observer.Start(s.startEvents(p.pid))
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
	if p == s.root && t.tid == p.pid {
		s.result.ExitCode, s.result.Signal = code, sig
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
	var out []string
	for len(b) > 0 {
		s, rest, _ := strings.Cut(string(b), "\x00")
		out = append(out, s)
		b = []byte(rest)
	}
	return out
}
