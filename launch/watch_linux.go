package launch

import (
	"bytes"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// watcher enforces a run's Watch from its own goroutine: it kills the
// traced processes at a deadline and runs the check command. The stop
// loop keeps it told of the processes alive (add, remove) and hands it
// the exit status of the check, which the loop's wait reaps like any
// child (exited).
type watcher struct {
	w trace.Watch

	mu       sync.Mutex
	pids     map[int]bool            // thread-group leaders of traced processes alive
	statuses map[int]unix.WaitStatus // children the loop reaped that it does not trace
	reaped   chan struct{}           // signalled when statuses grows

	quit     chan struct{}
	done     chan struct{}
	timedOut bool
	aliveAt  bool
	check    int // exit status of the check, -1: none
	checkOut string
	// kill, when set, replaces the SIGKILL of every process in pids.
	kill func()
	// checkPID is the check command's pid while it runs, else 0.
	checkPID int
	// checking is set from the moment the check is decided on until it
	// has been reaped; settled, once a loop that does not end at ECHILD
	// has decided to end: no check starts after it (settle).
	checking, settled bool
}

func newWatcher(w trace.Watch) *watcher {
	return &watcher{w: w, pids: make(map[int]bool), statuses: make(map[int]unix.WaitStatus),
		reaped: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{}), check: -1}
}

// needsSIGCHLD reports whether a child that is not traced will be waited
// for: SIGCHLD must then not be ignored, or the kernel reaps it itself.
func (wt *watcher) needsSIGCHLD() bool { return len(wt.w.Check) > 0 }

func (wt *watcher) add(pid int) {
	wt.mu.Lock()
	wt.pids[pid] = true
	wt.mu.Unlock()
}

func (wt *watcher) remove(pid int) {
	wt.mu.Lock()
	delete(wt.pids, pid)
	wt.mu.Unlock()
}

// exited records the status of a child the loop reaped but does not
// trace: the check command.
func (wt *watcher) exited(pid int, ws unix.WaitStatus) {
	wt.mu.Lock()
	wt.statuses[pid] = ws
	wt.mu.Unlock()
	select {
	case wt.reaped <- struct{}{}:
	default:
	}
}

// killAll SIGKILLs every traced process; the loop sees them die.
func (wt *watcher) killAll() {
	if wt.kill != nil {
		wt.kill()
		return
	}
	wt.mu.Lock()
	defer wt.mu.Unlock()
	for pid := range wt.pids {
		unix.Kill(pid, unix.SIGKILL)
	}
}

func (wt *watcher) alive() bool {
	wt.mu.Lock()
	defer wt.mu.Unlock()
	return len(wt.pids) > 0
}

// start runs the watch until stop is called. It does nothing for a zero
// Watch but EndWithRoot, which the loop handles.
func (wt *watcher) start(began time.Time) {
	if wt.w.Alive <= 0 && wt.w.Timeout <= 0 {
		close(wt.done)
		return
	}
	go func() {
		defer close(wt.done)
		var timeout <-chan time.Time
		if wt.w.Timeout > 0 {
			t := time.NewTimer(time.Until(began.Add(wt.w.Timeout)))
			defer t.Stop()
			timeout = t.C
		}
		var alive <-chan time.Time
		if wt.w.Alive > 0 {
			t := time.NewTimer(time.Until(began.Add(wt.w.Alive)))
			defer t.Stop()
			alive = t.C
		}
		select {
		case <-wt.quit:
			return
		case <-timeout:
			wt.mu.Lock()
			wt.timedOut = true
			wt.mu.Unlock()
			wt.killAll()
			return
		case <-alive:
		}
		wt.mu.Lock()
		if len(wt.pids) == 0 || wt.settled {
			wt.mu.Unlock()
			return
		}
		wt.aliveAt = true
		wt.checking = len(wt.w.Check) > 0
		wt.mu.Unlock()
		if wt.checking {
			wt.runCheck(timeout)
			wt.mu.Lock()
			wt.checking = false
			wt.mu.Unlock()
		}
		wt.killAll()
	}()
}

// stop ends the watch and returns what it saw.
func (wt *watcher) stop() (timedOut, aliveAt bool, check int, out string) {
	close(wt.quit)
	<-wt.done
	wt.mu.Lock()
	defer wt.mu.Unlock()
	return wt.timedOut, wt.aliveAt, wt.check, wt.checkOut
}

// maxCheckOutput bounds what is kept of the check's output.
const maxCheckOutput = 4096

// runCheck starts the check command and waits for the loop to reap it,
// or for the timeout, which kills it.
func (wt *watcher) runCheck(timeout <-chan time.Time) {
	r, w, err := os.Pipe()
	if err != nil {
		wt.setCheck(127, "check: "+err.Error())
		return
	}
	path := wt.w.Check[0]
	if p, err := exec.LookPath(path); err == nil {
		path = p
	}
	devnull, _ := os.Open(os.DevNull)
	pid, err := syscall.ForkExec(path, wt.w.Check, &syscall.ProcAttr{
		Env:   os.Environ(),
		Files: []uintptr{devnull.Fd(), w.Fd(), w.Fd()},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	})
	devnull.Close()
	w.Close()
	if err != nil {
		r.Close()
		wt.setCheck(127, "check "+wt.w.Check[0]+": "+err.Error())
		return
	}
	wt.mu.Lock()
	wt.checkPID = pid
	wt.mu.Unlock()
	defer func() {
		wt.mu.Lock()
		wt.checkPID = 0
		wt.mu.Unlock()
	}()
	outc := make(chan string, 1)
	go func() {
		var b bytes.Buffer
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			if b.Len() < maxCheckOutput {
				b.Write(buf[:min(n, maxCheckOutput-b.Len())])
			}
			if err != nil {
				break
			}
		}
		r.Close()
		outc <- b.String()
	}()
	for {
		wt.mu.Lock()
		ws, ok := wt.statuses[pid]
		wt.mu.Unlock()
		if ok {
			code := ws.ExitStatus()
			if ws.Signaled() {
				code = 128 + int(ws.Signal())
			}
			wt.setCheck(code, <-outc)
			return
		}
		select {
		case <-wt.reaped:
		case <-timeout:
			unix.Kill(-pid, unix.SIGKILL)
			wt.mu.Lock()
			wt.timedOut = true
			wt.mu.Unlock()
			timeout = nil
		}
	}
}

func (wt *watcher) setCheck(code int, out string) {
	wt.mu.Lock()
	wt.check, wt.checkOut = code, out
	wt.mu.Unlock()
}

// Watcher enforces a trace.Watch for a recorder's wait loop (both
// backends): it runs the check and, at the deadlines, kills the command.
// The recorder's wait loop reaps every child and passes on the statuses
// of those that are not the command's (Exited), and tells it whether the
// command still runs (Add, Remove).
type Watcher struct{ w *watcher }

// NewWatcher returns the watcher of w; kill stops every process of the
// command, and nil means SIGKILL every process Add named and Remove did
// not take back.
func NewWatcher(w trace.Watch, kill func()) *Watcher {
	wt := newWatcher(w)
	wt.kill = kill
	return &Watcher{wt}
}

// Add and Remove say which processes of the command are alive.
func (w *Watcher) Add(pid int)    { w.w.add(pid) }
func (w *Watcher) Remove(pid int) { w.w.remove(pid) }

// Exited hands on the status of a child that is not the command's.
func (w *Watcher) Exited(pid int, ws unix.WaitStatus) { w.w.exited(pid, ws) }

// CheckPID returns the check command's pid while it runs, else 0: a
// child of envbisect that is not the command's.
func (w *Watcher) CheckPID() int {
	w.w.mu.Lock()
	defer w.w.mu.Unlock()
	return w.w.checkPID
}

// NeedsSIGCHLD reports whether a child that is not the command's will be
// waited for (the check): SIGCHLD must then not be ignored, or the
// kernel reaps it itself.
func (w *Watcher) NeedsSIGCHLD() bool { return w.w.needsSIGCHLD() }

// Settle reports whether no check is running or about to, and if so
// makes sure none starts from now on: a wait loop that ends when the
// command's processes are gone, rather than at ECHILD, calls it before
// it ends, so that it never leaves a check unreaped.
func (w *Watcher) Settle() bool {
	w.w.mu.Lock()
	defer w.w.mu.Unlock()
	if w.w.checking {
		return false
	}
	w.w.settled = true
	return true
}

// Start begins the watch; the run began at began.
func (w *Watcher) Start(began time.Time) { w.w.start(began) }

// Stop ends the watch and fills in what it saw.
func (w *Watcher) Stop(res *trace.RunResult) {
	res.TimedOut, res.AliveAt, res.CheckStatus, res.CheckOutput = w.w.stop()
}
