package replay

import (
	"fmt"
	"os"
	"strings"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/trace"
)

// Start items: what the command starts with that no system call shows
// and a run can set before it starts: environment variables, the umask,
// resource limits, the signals it starts with ignored or blocked (each
// signal an item: the helper sets the good disposition before its exec,
// the others as envbisect's caller gave them; no privilege involved). The recording's start events hold their good values;
// a run that replays an item starts the command with the recorded value
// (or without the variable, when the recording had none). argv is the
// command's input and the credentials, auxv and kernel are not settable
// per run; those differences show in `envbisect diff`. The working
// directory is a start item of its own (startcwd.go): the run's sandbox
// starts the command at the recorded path.

// shellVars are environment variables a shell sets for its own use ($_ is
// the last command, $OLDPWD the directory before the last cd): they differ
// between any two invocations and never make a difference.
var shellVars = map[string]bool{"_": true, "OLDPWD": true}

// startKinds are the kinds of start events a run can replay.
var startKinds = map[trace.StartKind]bool{trace.StartEnv: true, trace.StartUmask: true, trace.StartRlimit: true, trace.StartSignal: true}

// liveCompared keeps the live start events a comparison with the
// recording is fair for: the signal dispositions only when the trace
// recorded them (trace.Header.Signals; an older trace has no signal
// items, which says nothing of its signals).
func (r *Recording) liveCompared(live []trace.StartEvent) []trace.StartEvent {
	if r.Trace.Header.Signals {
		return live
	}
	out := live[:0:0]
	for _, e := range live {
		if e.Kind != trace.StartSignal {
			out = append(out, e)
		}
	}
	return out
}

// StartItems returns the start items that differ between the recording
// and a command started here now with env (nil: envbisect's own): A is
// the recorded event, B the live one; either is nil when the variable is
// set on one side only. Redacted variables that differ are returned
// apart: no run can apply them (startredacted.go).
func (r *Recording) StartItems(env []string) (items, redacted []align.StartDiff) {
	if env == nil {
		env = os.Environ()
	}
	var rec []trace.StartEvent
	for _, e := range r.Trace.Start {
		if startKinds[e.Kind] {
			rec = append(rec, e)
		}
	}
	rec, live, redacted := r.splitRedacted(rec, r.liveCompared(launch.InheritedStart(env)))
	for _, d := range align.CompareStart(rec, live, align.Options{}) {
		if d.Kind == trace.StartEnv && shellVars[d.Name] {
			continue
		}
		items = append(items, d)
	}
	return items, redacted
}

// startConfig is what replaying some start items changes in a run.
type startConfig struct {
	env    []string
	umask  *uint32
	limits []trace.Limit
	// signals, when a signal item is replayed, are the dispositions the
	// command starts with: envbisect's caller's with the items' good ones.
	signals *trace.SignalSets
	cwd     string     // the recorded working directory, to start at; "": where the run is
	creds   credsStart // with an exec spec (startspec.go)
	caps    capsStart  // with an exec spec (startcaps.go)
}

// applyStart returns the environment, umask and limits of a run that
// replays items over env, bounded by b (limits a run may not set in full
// are set as near as b allows).
func applyStart(env []string, items []align.StartDiff, b launch.Bound) (startConfig, error) {
	sc := startConfig{env: env}
	set := map[string]*string{}
	for _, it := range items {
		switch it.Kind {
		case trace.StartEnv:
			if it.A == nil {
				set[it.Name] = nil
			} else {
				v := it.A.Value
				set[it.Name] = &v
			}
		case trace.StartUmask:
			if it.A == nil {
				continue
			}
			u, err := trace.ParseUmask(it.A.Value)
			if err != nil {
				return sc, err
			}
			sc.umask = &u
		case trace.StartRlimit:
			if it.A == nil {
				continue
			}
			l, err := trace.ParseLimit(it.Name, it.A.Value)
			if err != nil {
				return sc, err
			}
			sc.limits = append(sc.limits, limitInReach(it, l, b))
		case trace.StartSignal:
			if sc.signals == nil {
				s := launch.CallerSignals()
				sc.signals = &s
			}
			var good *string
			if it.A != nil {
				good = &it.A.Value
			}
			if !sc.signals.Set(it.Name, good) {
				return sc, fmt.Errorf("start item signal %s: no such signal", it.Name)
			}
		case trace.StartCwd:
			if it.A != nil {
				sc.cwd = it.A.Value
			}
		case trace.StartCreds:
			if it.A == nil {
				continue
			}
			if err := sc.creds.add(it.Name, it.A.Value); err != nil {
				return sc, fmt.Errorf("start item creds %s %q: %w", it.Name, it.A.Value, err)
			}
		case trace.StartCaps, trace.StartNoNewPrivs:
			if it.A == nil {
				continue
			}
			if err := sc.caps.add(it.Kind, it.Name, it.A.Value); err != nil {
				return sc, err
			}
		default:
			return sc, fmt.Errorf("start item %s %s cannot be replayed", it.Kind, it.Name)
		}
	}
	if _, own := set[pwdVar]; sc.cwd != "" && !own && hasVar(env, pwdVar) {
		// $PWD goes with the working directory (startcwd.go).
		set[pwdVar] = &sc.cwd
	}
	if len(set) == 0 {
		return sc, nil
	}
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if _, replaced := set[k]; !replaced {
			out = append(out, kv)
		}
	}
	for _, it := range items { // in the items' order, for a stable environment
		name := it.Name
		if it.Kind == trace.StartCwd {
			name = pwdVar
		} else if it.Kind != trace.StartEnv {
			continue
		}
		if v := set[name]; v != nil {
			out = append(out, name+"="+*v)
			set[name] = nil
		}
	}
	sc.env = out
	return sc, nil
}

// hasVar reports whether env sets variable name.
func hasVar(env []string, name string) bool {
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k == name {
			return true
		}
	}
	return false
}
