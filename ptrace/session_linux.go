package ptrace

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"time"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// ErrPtraceDenied is returned when the kernel refuses to let envbisect
// trace the command.
var ErrPtraceDenied = errors.New("ptrace not permitted: run as root or grant CAP_SYS_PTRACE; " +
	"if kernel.yama.ptrace_scope is 3, ptrace is disabled until reboot; " +
	"in a container, allow ptrace in its seccomp profile (docker run --cap-add SYS_PTRACE)")

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
	content launch.ContentFilter
	files   *fileKeeper // record only: the files calls open and exec
	seccomp bool
	// denyTags: the target's seccomp filters run rewritten, and a seccomp
	// stop may be a call they deny (denied_linux.go).
	denyTags bool
	start    time.Time

	tasks map[int]*task
	early map[int]*earlyTask // tasks whose creation we have not seen yet (early_linux.go)
	root  *proc

	procs, threads uint32
	seq, stops     uint64
	result         trace.RunResult
	// addrs are the binds this semi-replay run moved to a free address
	// (addrs_linux.go).
	addrs []addrRedirect

	killAll   atomic.Bool
	killed    bool
	interrupt atomic.Bool

	watch  *launch.Watcher
	warned map[string]bool
	// redir: creations a semi-replay run made in its scratch area, and
	// where calls on their paths go (redirect_linux.go).
	redir redirects
	// noMFDExec: this kernel refused a stand-in's MFD_EXEC (serve_linux.go).
	noMFDExec bool
	// answerNrs are, in an Answering run, the numbers of the calls that
	// stop (answer_linux.go); nil otherwise.
	answerNrs map[int]bool
}

// Run starts cfg's command under the tracer and follows it until every
// traced process has exited. It returns the command's exit status; the
// events went to cfg.Observer as they happened.
func Run(cfg Config) (*trace.RunResult, error) {
	if cfg.Table == nil || cfg.Observer == nil || len(cfg.Argv) == 0 {
		return nil, errors.New("ptrace: Config needs Table, Observer and Argv")
	}
	content, err := launch.NewContentFilter(cfg.Exclude)
	if err != nil {
		return nil, err
	}
	s := &session{
		cfg:     cfg,
		table:   cfg.Table,
		cap:     capturer{table: cfg.Table, max: cfg.MaxCapture},
		content: content,
		tasks:   make(map[int]*task),
		early:   make(map[int]*earlyTask),
		watch:   launch.NewWatcher(cfg.Watch, nil),
	}
	if cfg.Files != nil && cfg.Replayer == nil {
		s.files = newFileKeeper(cfg.Files)
	}
	type outcome struct {
		res *trace.RunResult
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

func (s *session) run() (*trace.RunResult, error) {
	allow := s.table.NoStop()
	s.seccomp = BackendFor(s.cfg.NoSeccomp) == trace.BackendPtraceSeccomp
	if !s.cfg.NoSeccomp && !s.seccomp {
		s.warn("seccomp filters are unavailable here: stopping at every system call (slower)")
	}
	s.result.Backend = trace.BackendPtrace
	s.result.Filtered = allow
	if err := s.answering(); err != nil {
		return nil, err
	}
	if s.cfg.Answering != nil {
		s.result.Filtered = nil // every call but the stopped ones
	}
	if s.seccomp && s.cfg.Answering != nil {
		if err := launch.CheckStopOnlyFilter(s.cfg.Answering.Stop); err != nil {
			return nil, err
		}
		s.result.Backend = trace.BackendPtraceSeccomp
		s.denyTags = s.cfg.Join != nil && s.cfg.Join.Exec != nil && len(s.cfg.Join.Exec.Seccomp) > 0
	} else if s.seccomp {
		if err := launch.CheckSeccompFilter(allow); err != nil {
			return nil, err
		}
		s.result.Backend = trace.BackendPtraceSeccomp
		s.denyTags = s.cfg.Join != nil && s.cfg.Join.Exec != nil && len(s.cfg.Join.Exec.Seccomp) > 0
	}
	h, err := launch.Start(&s.cfg.Config)
	if err != nil {
		return nil, err
	}
	pid := h.PID
	defer h.Close()
	defer func() {
		if err := s.redir.cleanup(); err != nil {
			s.warn(err.Error())
		}
	}()
	s.start = time.Now()
	if s.cfg.CPU >= 0 {
		launch.PinTracer(s.cfg.CPU)
	}
	if err := seize(pid); err != nil {
		h.Abort() // the helper reads EOF and exits
		var ws unix.WaitStatus
		unix.Wait4(pid, &ws, 0, nil)
		if errors.Is(err, unix.EPERM) {
			return nil, ErrPtraceDenied
		}
		return nil, fmt.Errorf("ptrace seize of the helper (pid %d): %w", pid, err)
	}
	if !s.seccomp {
		// Without the filter nothing would stop the helper before its
		// exec, and its execve entry would go unseen: stop it now, and
		// the first stop resumes it with PTRACE_SYSCALL.
		if err := ptrace(unix.PTRACE_INTERRUPT, pid, 0, 0); err != nil {
			h.Abort()
			unix.Kill(pid, unix.SIGKILL)
			var ws unix.WaitStatus
			unix.Wait4(pid, &ws, unix.WALL, nil)
			return nil, fmt.Errorf("ptrace interrupt of the helper: %w", err)
		}
	}
	switch {
	case s.seccomp && s.cfg.Answering != nil:
		h.TraceOnly(s.cfg.Answering.Stop)
	case s.seccomp:
		h.TraceAllBut(allow)
	}
	if err := h.Release(); err != nil {
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
	// A check command is waited for by the loop: then SIGCHLD stays.
	if !s.watch.NeedsSIGCHLD() {
		if restore, err := ignoreSIGCHLD(); err == nil {
			defer restore()
		}
	}
	s.procs, s.threads = 1, 1
	s.root = &proc{pid: pid, id: 1, live: 1, fds: systable.NewFDTable[string](), fs: &fsState{}}
	s.tasks[pid] = &task{tid: pid, proc: s.root, id: 1, fresh: !s.seccomp}
	s.emit(&trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1, PID: int32(pid), TID: int32(pid), Index: 1})

	stopSignals := s.forwardSignals(pid)
	defer stopSignals()
	s.watch.Add(pid)
	s.watch.Start(s.start)
	err = s.loop()
	s.watch.Stop(&s.result)
	if err != nil {
		s.killEverything()
		return nil, err
	}
	if !s.root.execd {
		if err := h.ExecError(s.result.ExitCode); err != nil {
			return nil, err
		}
		return nil, launch.NotStarted(s.result.ExitCode)
	}
	s.result.Calls = s.seq
	s.result.Procs = s.procs
	s.result.Threads = s.threads
	s.result.Stops = s.stops
	s.result.Interrupted = s.interrupt.Load()
	return &s.result, nil
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
			s.killTasks()
		}
		if err := s.handle(tid, ws); err != nil {
			return err
		}
	}
	return nil
}

// handle takes wait4's report ws about tid.
func (s *session) handle(tid int, ws unix.WaitStatus) error {
	t := s.tasks[tid]
	if t == nil {
		s.unseen(tid, ws) // early_linux.go
		return nil
	}
	if ws.Exited() || ws.Signaled() {
		s.gone(t, ws)
		return nil
	}
	if !ws.Stopped() {
		return nil
	}
	inSyscall := t.inSyscall // for the error message: the handler changes it
	err := s.stopped(t, ws)
	if err == nil {
		return nil
	}
	var compat *CompatError
	if errors.As(err, &compat) {
		return err // names the process itself
	}
	if leftStop(tid, err) {
		// Killed meanwhile: wait4 reports its exit stop and its death
		// next (stopcheck_linux.go).
		return nil
	}
	var se *stopError
	if !errors.As(err, &se) {
		err = &stopError{stop: stopName(ws, inSyscall), err: err}
	}
	return threadError(t, err)
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
		if unix.Signal(sig) == unix.SIGSYS {
			if err := compatTrap(t); err != nil {
				return err // an i386 call our filter trapped (compat_linux.go)
			}
		}
		if t.holdSignal(sig) {
			return s.resume(t, 0) // a served exec's argv is below the stack (serveexec_linux.go)
		}
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
