package replay

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/ptrace"
	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/serve"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/verdict"
)

// DefaultWindow is how far a thread's live calls may run ahead of or
// behind its recorded calls before it counts as diverged.
const DefaultWindow = 64

// Options says how to make one semi-replay run.
type Options struct {
	Argv []string // the command, argv[0] included
	Env  []string // its environment; nil: envbisect's own
	Dir  string   // its working directory; "": envbisect's own

	Plan *depgraph.Plan // what to do with each recorded call
	// Start are the start items to replay (see Recording.StartItems):
	// the command starts with their recorded values.
	Start []align.StartDiff
	Judge verdict.Spec // how the run is judged

	Window    int  // see DefaultWindow; 0: the default
	ListCalls bool // keep every live call in Result.Calls
	CPU       int  // see ptrace.Config.CPU; -1: no pinning
	// NoLive keeps no live results (Result.Live stays empty): for a run
	// whose caller compares no live call with its recorded one (the
	// replay command). A run that executes a long trace otherwise holds
	// each of its calls until it ends.
	NoLive bool
	// NoSeccomp stops at every call (PTRACE_SYSCALL) instead of using a
	// seccomp filter, as the tracer does by itself where seccomp is
	// missing.
	NoSeccomp bool
	// Join runs the command inside a container (ptrace.Config.Join);
	// Env and Dir are then the container's, and Argv[0] is looked up
	// in its PATH. A check still runs on the host.
	Join *trace.Join
	// Sandbox, when set, runs the command in a throwaway view of the file
	// system (launch.Config.Sandbox): nothing it writes survives the run.
	Sandbox *sandbox.Spec
	// Serve holds the trace's file contents (ptrace.Config.Serve): one
	// Store per process, shared by all its runs, closed by the caller.
	// nil: a replayed open hands out an empty stand-in.
	Serve *serve.Store

	Stdin, Stdout, Stderr *os.File
	// KeepFDs are descriptors of envbisect's own the command gets too, at
	// the same numbers (launch.Config.KeepFDs); calls on them are matched
	// as calls on an inherited fd, like stdout's.
	KeepFDs   []int
	Interrupt <-chan os.Signal
	Warn      func(string)

	// ObserveOnly are recorded calls (by seq) an observation run is made
	// for: once each has run live (its result in Result.Live), the run
	// has shown what it was made for and is ended, its processes killed
	// (Result.Observed). Empty: the run goes to its end.
	ObserveOnly []uint64
}

// Run makes one semi-replay run of the command: the recorded calls the
// plan replays are skipped and their recorded results written into the
// live processes, the ones it executes then overwrites run and get the
// recorded results, the rest run. Every traced process is gone when it
// returns.
func (r *Recording) Run(ctx context.Context, o Options) (*Result, error) {
	if len(o.Argv) == 0 {
		return nil, errors.New("no command given")
	}
	if r.Graph == nil {
		return nil, errors.New("a call-level run needs the trace's dependency graph (replay.Prepare, not PrepareStart)")
	}
	path, err := launch.LookPath(o.Argv[0], o.Join)
	if err != nil {
		return nil, err
	}
	env := o.Env
	if env == nil && o.Join == nil {
		env = os.Environ()
	}
	bound := launch.BoundFor(o.Join)
	sc, err := applyStart(env, o.Start, bound)
	if err != nil {
		return nil, err
	}
	cwd := o.Dir
	if cwd == "" && o.Join == nil {
		cwd, _ = os.Getwd()
	}
	judgeCwd, judgeEnv := cwd, env
	if o.Join != nil {
		judgeCwd, judgeEnv = "", nil // the check runs on the host
		if cwd == "" {
			cwd = "/"
		}
	}
	box := o.Sandbox
	if sc.cwd != "" {
		// The replayed working directory: the sandbox starts the command
		// at the recorded path, where its paths then are the recording's.
		if box == nil {
			return nil, fmt.Errorf("start item cwd %s: a run can start the command at the recorded working directory only in its sandbox (--sandbox=on)", sc.cwd)
		}
		b := *box
		b.Cwd, box = sc.cwd, &b
		cwd = sc.cwd
	}
	window := o.Window
	if window <= 0 {
		window = DefaultWindow
	}
	// A check after the command reads what the command wrote: it runs in
	// the run's sandbox, kept for it (launch.Config.View).
	var view *os.File
	keepView := func(ns *os.File) { view = ns }
	if o.Sandbox == nil || o.Join != nil || o.Judge.Check == "" || o.Judge.Alive > 0 {
		keepView = nil
	}
	defer func() {
		if view != nil {
			view.Close()
		}
	}()
	e := newEngine(r, o.Plan, physicalCwd(cwd, sc.cwd != "" || o.Join != nil), window, o.ListCalls)
	e.noLive = o.NoLive
	e.inherited = inheritedTargets([3]*os.File{o.Stdin, o.Stdout, o.Stderr}, o.KeepFDs)
	interrupt, stopObserving := observeOnly(e, o.ObserveOnly, o.Interrupt)
	defer stopObserving()
	start := time.Now()
	res, err := ptrace.Run(ptrace.Config{
		Config: launch.Config{
			Path: path, Argv: o.Argv, Env: sc.env, Dir: o.Dir, Join: sc.specJoin(o.Join), Identity: sc.plainIdentity(o.Join, bound),
			Umask: sc.umask, Limits: sc.limits, Signals: sc.signals, Bound: &bound,
			Table: r.Table,
			CPU:   o.CPU,
			Stdin: o.Stdin, Stdout: o.Stdout, Stderr: o.Stderr, KeepFDs: o.KeepFDs,
			Sandbox:   box,
			View:      keepView,
			Observer:  e,
			Watch:     o.Judge.Watch(),
			Interrupt: interrupt,
			Warn:      o.Warn,
		},
		NoVDSO:    r.Trace.Header.NoVDSO, // time queries are calls in both runs, or in neither
		NoSeccomp: o.NoSeccomp,
		Replayer:  e,
		Serve:     o.Serve,
	})
	if err != nil {
		return nil, err
	}
	out := e.res
	j := judge(ctx, o.Judge, o.Warn, res, view, judgeCwd, judgeEnv)
	out.Verdict, out.Detail, out.CheckOutput, out.Abortive = j.Verdict, j.Detail, j.CheckOutput, j.Abortive
	e.skippedWork(out.Verdict)
	e.unreached(out.Verdict)
	out.ExitCode = res.ExitCode
	out.AddrRedirects = res.AddrRedirects
	out.Seconds = time.Since(start).Seconds()
	if e.observed != nil && e.observed.done() {
		out.Observed = true
		return out, nil // ended by observeOnly, not by a signal of the user's
	}
	if res.Interrupted {
		return out, errors.New("interrupted")
	}
	return out, nil
}

// judge judges a finished run. The check runs as the user set it up, not
// replayed; in the run's file system view when one was kept (a sandboxed
// run), so that it sees what the command wrote there; where the view
// cannot be entered, on the real file system, with a warning.
func judge(ctx context.Context, spec verdict.Spec, warn func(string), res *trace.RunResult, view *os.File, dir string, env []string) verdict.Outcome {
	if view == nil {
		return spec.Judge(ctx, res, dir, env)
	}
	var j verdict.Outcome
	if err := launch.InView(view, func() { j = spec.Judge(ctx, res, dir, env) }); err != nil {
		if warn != nil {
			warn(err.Error() + "; the check runs on the real file system")
		}
		return spec.Judge(ctx, res, dir, env)
	}
	return j
}
