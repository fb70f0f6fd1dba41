package ebpfrec

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"time"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Options are the eBPF recorder's own settings; the rest comes from the
// launch.Config the ptrace backend shares.
type Options struct {
	// RingSize is the ring buffer's size in bytes (a power of two); 0:
	// sized to this machine's CPUs (RingSize).
	RingSize int
	// Open, when set, gives the recording its records instead of a probe
	// loaded for it: a resident recorder's session (see Source). It gets
	// the options the probe would have been loaded with.
	Open func(bpf.Options) (Source, error)
}

// Run records cfg's command with the eBPF probe: cfg.Observer gets the
// start events and every event, as the ptrace backend gives them.
// MaxCapture 0 means bpf.DefaultMaxCapture: the probe always bounds what
// it copies.
func Run(cfg launch.Config, o Options) (*trace.RunResult, *trace.Losses, error) {
	if cfg.Table == nil || cfg.Observer == nil || len(cfg.Argv) == 0 {
		return nil, nil, errors.New("ebpfrec: Config needs Table, Observer and Argv")
	}
	if cfg.Path == "" && cfg.Join == nil {
		return nil, nil, errors.New("ebpfrec: Config needs Path (see launch.LookPath) or Join")
	}
	filter, err := launch.NewContentFilter(cfg.Exclude)
	if err != nil {
		return nil, nil, err
	}
	probe, err := open(o, probeOptions(cfg.Table, o, bpf.Filter{Kind: bpf.FilterTree}, cfg.MaxCapture))
	if err != nil {
		return nil, nil, err
	}
	defer probe.Close()
	restore, err := launch.BecomeSubreaper()
	if err != nil {
		return nil, nil, err
	}
	defer restore()

	u, err := launch.Start(&cfg)
	if err != nil {
		return nil, nil, err
	}
	if err := probe.Track(uint32(u.PID)); err != nil {
		u.Abort()
		var ws unix.WaitStatus
		unix.Wait4(u.PID, &ws, 0, nil)
		return nil, nil, fmt.Errorf("track the command (pid %d): %w", u.PID, err)
	}
	began := time.Now()
	asm := newAssembler(cfg.Table, cfg.Observer, filter, monotonic())
	fds := readFDTable(u.PID, launch.CommandFDs(cfg.KeepFDs)) // the helper's own are gone at its exec
	asm.helperExe = u.HelperExe()
	asm.command(int32(u.PID), fds, readCwd(u.PID), u.StartEvents(&cfg))

	tree := launch.NewTree(u.PID)
	asm.refuse = tree.Kill // an i386 call: the run cannot be recorded
	reading := startReading(probe, asm)
	watch := launch.NewWatcher(cfg.Watch, tree.Kill)
	tree.NotOurs = watch.CheckPID
	watch.Add(u.PID)
	if err := u.Release(); err != nil {
		unix.Kill(u.PID, unix.SIGKILL)
	}
	watch.Start(began)
	stopSignals := forwardSignals(cfg.Interrupt, u.PID, tree)

	res := &trace.RunResult{Backend: trace.BackendEBPF, Filtered: cfg.Table.NoStop(), CheckStatus: -1}
	var rootWS unix.WaitStatus
	for {
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
			rootWS = ws
			watch.Remove(pid)
			if cfg.Watch.EndWithRoot && !tree.Killed() {
				// Background processes the command left behind end
				// with it, in record as in locate's runs; the user
				// hears which.
				res.LeftRunning = tree.Executables()
				tree.Kill()
				if len(res.LeftRunning) > 0 && cfg.Warn != nil {
					cfg.Warn(launch.LeftRunningMessage(res.LeftRunning))
				}
			}
		default:
			watch.Exited(pid, ws) // the check command, or an orphan of the tree

		}
	}
	res.Interrupted = stopSignals()
	watch.Stop(res)
	reading.stop()
	if asm.compat != nil {
		u.ExecError(0) // closes the pipe
		return nil, nil, asm.compat
	}
	asm.finish()

	res.ExitCode, res.Signal = shellStatus(uint32(rootWS))
	res.Procs, res.Threads, res.Calls = asm.counts()
	lost, err := probe.Lost()
	if err != nil {
		return nil, nil, fmt.Errorf("read the probe's loss counters: %w", err)
	}
	losses := asm.lost
	losses.Calls, losses.Chunks, losses.Procs = lost.Calls, lost.Chunks, lost.Procs
	if res.Procs == 0 {
		if err := u.ExecError(res.ExitCode); err != nil {
			return nil, nil, err
		}
		return nil, nil, &launch.ExecError{Code: 126, Msg: fmt.Sprintf("the command did not start (status %d)", res.ExitCode)}
	}
	u.ExecError(res.ExitCode) // closes the pipe
	return res, &losses, reading.err
}

// probeOptions builds the probe's configuration from the syscall table.
func probeOptions(tab *systable.Table, o Options, f bpf.Filter, maxCapture uint64) bpf.Options {
	po := bpf.Options{Filter: f, RingSize: o.RingSize}
	if maxCapture > 0 {
		po.MaxCapture = uint32(min(maxCapture, 1<<31))
	}
	po.Syscalls, po.Ioctls, po.Fcntls, po.Prctls = bpf.DescribeTable(tab)
	return po
}

// MaxCapture returns the capture limit a recording with max (0: none
// asked) has: the probe always has one.
func MaxCapture(max uint64) uint64 {
	if max == 0 {
		return bpf.DefaultMaxCapture
	}
	return max
}

// reading is the goroutine that feeds the probe's records to the
// assembler.
type reading struct {
	probe Source
	done  chan struct{}
	err   error
}

func startReading(probe Source, asm *assembler) *reading {
	r := &reading{probe: probe, done: make(chan struct{})}
	handle := asm.record
	go func() {
		defer close(r.done)
		for {
			if _, err := probe.ReadBatch(handle); err != nil {
				if !errors.Is(err, os.ErrDeadlineExceeded) && !errors.Is(err, os.ErrClosed) {
					r.err = fmt.Errorf("read the ring buffer: %w", err)
				}
				return
			}
		}
	}()
	return r
}

// stop reads what is left in the ring buffer, then ends the goroutine.
// A probe of the recording's own is woken from the wait it is in (up to
// the poll interval); a resident recorder's session is drained by
// SetDeadline itself.
func (r *reading) stop() {
	r.probe.SetDeadline(time.Now())
	if w, ok := r.probe.(interface{ Wake() error }); ok {
		w.Wake() // on failure the wait ends at the poll interval
	}
	<-r.done
}

// monotonic returns CLOCK_MONOTONIC, the probe's clock.
func monotonic() time.Duration {
	var ts unix.Timespec
	unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return time.Duration(ts.Nano())
}

// RingSize returns the ring buffer size a recording asking for size (0:
// the default, bpf.DefaultRingSize for the CPUs this process may use,
// which the command inherits) gets.
func RingSize(size int) int {
	if size == 0 {
		return bpf.DefaultRingSize(runtime.NumCPU())
	}
	return size
}
