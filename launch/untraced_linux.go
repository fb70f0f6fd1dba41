package launch

import (
	"errors"
	"os"
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// RunUntraced runs cfg's command through the helper and lets it run as it
// is: no ptrace, no seccomp filter of envbisect's (in a container, the
// container's own filters from Join.Exec, unchanged), at native speed. It
// is the eBPF recorder's loop without a probe: envbisect becomes a child
// subreaper, watches the command with a Watcher (timeout, alive, a check
// while it runs), passes signals on (ForwardInterrupts), ends what the
// command leaves running when it exits (Watch.EndWithRoot, named in
// RunResult.LeftRunning and cfg.Warn), and returns once every process of
// the run has been reaped: nothing is left running, and a sandbox ends
// with its last process.
//
// With cfg.Sandbox and cfg.View, View receives the sandbox's mount
// namespace after the run, which the helper sent over a socket once it
// had entered it (an untraced command has no exec stop at which to open
// it), so that a check after the command's exit reads what it wrote
// (InView). An error is returned when the command did not start
// (ExecError: the helper's report, such as a sandbox whose objects could
// not be put in place). cfg.Table, Observer, MaxCapture and Exclude are
// not used.
//
// It reaps every child of this process that ends while it runs (wait4
// on any child), so one run at a time per process; children the caller
// had before are left out of the run (Tree) and may live on.
func RunUntraced(cfg *Config) (*trace.RunResult, error) {
	if cfg.Path == "" && cfg.Join == nil {
		return nil, errors.New("launch: RunUntraced needs Path (see LookPath) or Join")
	}
	restore, err := BecomeSubreaper()
	if err != nil {
		return nil, err
	}
	defer restore()
	// The thread that starts the helper is its parent, whose end kills
	// the command (helperConfig.DieWithParent): it is this goroutine's
	// for the whole run, so that no other goroutine's end takes it.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	u, err := start(cfg, spawnOptions{viewSocket: cfg.Sandbox != nil && cfg.View != nil})
	if err != nil {
		return nil, err
	}
	if cfg.Join == nil {
		// A joined helper is started by a thread that ends at once
		// (joinFiles.forkExec): the death signal would kill it then.
		u.hc.DieWithParent, u.hc.Parent = true, os.Getpid()
	}
	tree := NewTree(u.PID)
	watch := NewWatcher(cfg.Watch, tree.Kill)
	tree.NotOurs = watch.CheckPID
	watch.Add(u.PID)
	began := time.Now()
	if err := u.Release(); err != nil {
		unix.Kill(u.PID, unix.SIGKILL)
	}
	watch.Start(began)
	stopSignals := forwardToTree(cfg, u.PID, tree)

	res := &trace.RunResult{CheckStatus: -1}
	var rootWS unix.WaitStatus
	rootDone := false
	for {
		// The run ends when the command's processes are gone (children
		// of the caller's that were there before are not its own, and
		// may live on), and no check is under way.
		if rootDone && len(tree.Members()) == 0 && watch.Settle() {
			break
		}
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, 0, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			break // ECHILD: the command and everything it left behind are gone
		}
		switch {
		case pid == u.PID:
			rootWS, rootDone = ws, true
			watch.Remove(pid)
			if cfg.Watch.EndWithRoot && !tree.Killed() {
				res.LeftRunning = tree.Executables()
				tree.Kill()
				if len(res.LeftRunning) > 0 && cfg.Warn != nil {
					cfg.Warn(LeftRunningMessage(res.LeftRunning))
				}
			}
		default:
			watch.Exited(pid, ws) // the check command, or an orphan of the tree
		}
	}
	res.Interrupted = stopSignals()
	watch.Stop(res)
	res.ExitCode, res.Signal = shellStatus(rootWS)
	view := u.h.receiveView()
	if err := u.ExecError(res.ExitCode); err != nil {
		if view != nil {
			view.Close()
		}
		return nil, err
	}
	if view != nil {
		cfg.View(view)
	}
	return res, nil
}

// forwardToTree passes the signals of cfg.Interrupt on to the command
// (ForwardInterrupts), killing the whole tree at the second; stop ends
// the forwarding and reports whether any signal came.
func forwardToTree(cfg *Config, root int, t *Tree) (stop func() bool) {
	if cfg.Interrupt == nil {
		return func() bool { return false }
	}
	var got atomic.Bool
	end := ForwardInterrupts(Interrupts{Signals: cfg.Interrupt, Root: root, Got: func() { got.Store(true) }, KillAll: t.Kill})
	return func() bool {
		end()
		return got.Load()
	}
}
