package replay

import (
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/trace"
)

// The working directory as a start item. When the recorded cwd differs
// from where the runs start here, a run that replays it starts the
// command at the recorded path: its sandbox binds this environment's
// working directory there (sandbox.Spec.Cwd), so relative paths and
// getcwd() give the recorded path and the files are this environment's.
// When the recorded cwd holds the one here (recorded in /tmp, run from
// /tmp/build) the sandbox binds nothing, which would hide the directory
// here, and so does it when the one here holds the recorded one (recorded
// in /tmp/build, run from /tmp: a bind would hide the recorded directory's
// own files): the command starts at the recorded path as it is in the view.
// That needs the sandbox: without one (--sandbox=off) the item is
// unapplied, listed and never a candidate. In a container run too: the
// command starts where the container's exec puts it.
//
// $PWD goes with the cwd: where the recorded $PWD was the recorded cwd,
// a run that replays the cwd sets $PWD to it (when $PWD is set here), and
// $PWD is no candidate of its own. A program that trusts $PWD when it
// names its working directory (gcc's getpwd, a shell's pwd) then sees
// the recorded path too.

// pwdVar is the environment variable that names the working directory.
const pwdVar = "PWD"

// CwdOptions say where the runs start here.
type CwdOptions struct {
	// Dir is the runs' working directory here; "": envbisect's own (with
	// Join: the container's, "/" when not told).
	Dir  string
	Join *trace.Join
	// Sandboxed: each run has a sandbox (replay.Options.Sandbox), which
	// can put the working directory at the recorded path.
	Sandboxed bool
}

// RecordedCwd is the working directory the recorded command started in:
// its start event, or the header's for a trace without one.
func (r *Recording) RecordedCwd() string {
	for _, e := range r.Trace.Start {
		if e.Kind == trace.StartCwd {
			return e.Value
		}
	}
	return r.Trace.Header.Cwd
}

// WithCwd adds the working directory to items (a candidate, last) or to
// unapplied when the recorded one differs from where the runs start
// here, and takes $PWD out of items when it goes with the cwd (above).
func (r *Recording) WithCwd(items, unapplied []align.StartDiff, o CwdOptions) ([]align.StartDiff, []align.StartDiff) {
	rec, live := r.RecordedCwd(), liveCwd(o)
	if rec == "" || live == "" || rec == live {
		return items, unapplied
	}
	d := align.StartDiff{Kind: trace.StartCwd,
		A: &trace.StartEvent{Kind: trace.StartCwd, Value: rec},
		B: &trace.StartEvent{Kind: trace.StartCwd, Value: live}}
	if !o.Sandboxed || o.Join != nil {
		return items, append(unapplied, d)
	}
	out := make([]align.StartDiff, 0, len(items)+1)
	for _, it := range items {
		if it.Kind == trace.StartEnv && it.Name == pwdVar && it.A != nil && it.A.Value == rec {
			continue
		}
		out = append(out, it)
	}
	return append(out, d), unapplied
}

// liveCwd is the physical path the runs start in here ("" when unknown).
func liveCwd(o CwdOptions) string {
	switch {
	case o.Join != nil && o.Dir == "":
		return "/"
	case o.Join != nil:
		return o.Dir
	case o.Dir != "":
		if p, err := filepath.EvalSymlinks(o.Dir); err == nil {
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
		}
		return o.Dir
	}
	wd, err := unix.Getwd() // the kernel's, as the recording's /proc/PID/cwd
	if err != nil {
		return ""
	}
	return wd
}

// physicalCwd is dir, where a run starts the command, as the kernel names
// it (symbolic links resolved), for keying the live calls, whose paths
// the kernel resolves: os.Getwd gives $PWD when it names the directory,
// a logical path through a link (/srv/current for /srv/releases/v1).
// kept: dir is already what the kernel will name (the recorded cwd a run
// replays) or a path in a container's view, and is given back as is; so
// is dir when it cannot be resolved.
func physicalCwd(dir string, kept bool) string {
	if kept || dir == "" {
		return dir
	}
	if p, err := filepath.EvalSymlinks(dir); err == nil && filepath.IsAbs(p) {
		return p
	}
	return dir
}
