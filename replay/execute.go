package replay

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/trace"
)

// Execute carries out one materialized run: the command starts through
// the launcher with spec's start items (bounded by its environment:
// launch.Bound), in a sandbox with spec's objects in place, their writes'
// content from contents (a *sandbox.Bundle that holds them all is used as
// it is, so one bundle can serve many runs; anything else is copied into
// a bundle for this run), and runs untraced (launch.RunUntraced): no
// ptrace, no seccomp filter of envbisect's; a spec that puts a kernel
// answer in place (Uname) runs under the ptrace engine stopped at the
// calls that answer it and no other (kernelnames.go). It is judged by spec.Judge,
// a check after the command's exit running in the run's view (on the
// host for a container run, as in Run). Every process of the run, its
// mounts and its scratch are gone when it returns.
//
// An error means the run could not be made (a spec or start item that
// cannot be applied, an object that cannot be put in place, a command
// that did not start: launch.ExecError, which launch.ExecRefused tells
// apart), or that envbisect was interrupted ("interrupted", with the
// Outcome so far). Runs are one at a time per process
// (launch.RunUntraced).
func Execute(ctx context.Context, spec Spec, contents sandbox.Contents, at Attach) (*Outcome, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	path, err := launch.LookPath(spec.Argv[0], spec.Join)
	if err != nil {
		return nil, err
	}
	env := spec.Env
	if env == nil && spec.Join == nil {
		env = os.Environ()
	}
	bound := launch.BoundFor(spec.Join)
	sc, err := applyStart(env, spec.Start, bound)
	if err != nil {
		return nil, err
	}
	box := spec.Sandbox
	if sc.cwd != "" {
		box.Cwd = sc.cwd // the sandbox starts the command at the recorded path
	}
	cwd := spec.Dir
	if cwd == "" && spec.Join == nil {
		cwd, _ = os.Getwd()
	}
	judgeCwd, judgeEnv := cwd, env
	if spec.Join != nil {
		judgeCwd, judgeEnv = "", nil // the check runs on the host
	}
	bundle, err := bundleFor(box, contents)
	if err != nil {
		return nil, fmt.Errorf("materialized run: %w", err)
	}
	if bundle != nil && bundle != contents {
		defer bundle.Close()
	}
	// A check after the command reads what the command wrote: it runs in
	// the run's view, kept for it.
	var view *os.File
	keepView := func(ns *os.File) { view = ns }
	if spec.Join != nil || spec.Judge.Check == "" || spec.Judge.Alive > 0 {
		keepView = nil
	}
	defer func() {
		if view != nil {
			view.Close()
		}
	}()
	start := time.Now()
	cfg := &launch.Config{
		Path: path, Argv: spec.Argv, Env: sc.env, Dir: spec.Dir, Join: sc.specJoin(spec.Join), Identity: sc.plainIdentity(spec.Join, bound),
		Umask: sc.umask, Limits: sc.limits, Signals: sc.signals, Bound: &bound,
		CPU: spec.CPU, ASLR: spec.ASLR,
		Stdin: at.Stdin, Stdout: at.Stdout, Stderr: at.Stderr, KeepFDs: spec.KeepFDs,
		Sandbox: &box, Bundle: bundle, View: keepView,
		Watch:     spec.Judge.Watch(),
		Interrupt: at.Interrupt,
		Warn:      at.Warn,
	}
	var res *trace.RunResult
	var ans *unameAnswer
	if len(spec.Uname) > 0 {
		res, ans, err = runAnswering(cfg, spec.Uname)
	} else {
		res, err = launch.RunUntraced(cfg)
	}
	if err != nil {
		return nil, err
	}
	j := judge(ctx, spec.Judge, at.Warn, res, view, judgeCwd, judgeEnv)
	out := &Outcome{Verdict: j.Verdict, Detail: j.Detail, CheckOutput: j.CheckOutput, Abortive: j.Abortive,
		ExitCode: res.ExitCode, Signal: res.Signal, TimedOut: res.TimedOut, LeftRunning: res.LeftRunning,
		Seconds: time.Since(start).Seconds()}
	if ans != nil {
		out.Stops, out.Stopped = ans.stops()
	}
	if res.Interrupted {
		return out, errors.New("interrupted")
	}
	return out, nil
}

// bundleFor returns the bundle of the contents box's objects write: nil
// when they write none, contents itself when it is a bundle that holds
// them, else a new one the caller closes.
func bundleFor(box sandbox.Spec, contents sandbox.Contents) (*sandbox.Bundle, error) {
	hashes := sandbox.ContentHashes(box.Objects)
	if len(hashes) == 0 {
		return nil, nil
	}
	if b, ok := contents.(*sandbox.Bundle); ok && b.Has(hashes) {
		return b, nil
	}
	return sandbox.NewBundle(hashes, contents)
}
