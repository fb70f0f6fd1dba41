package replay

import (
	"sort"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/trace"
)

// Identity start items that no run can change: securebits, the seccomp
// filters' hashes, the cgroup limits, the flags of the mounts the
// recorded calls reached, the user namespace's id maps and the CPU
// affinity. They are compared with what a command started here now gets
// (launch.LiveIdentity), and every difference is returned for the report
// to list as "differs here and could not be applied"; the report names
// one as the cause when it explains the culprit's error.

// identityKinds are the kinds compared here, mounts apart.
var identityKinds = map[trace.StartKind]bool{
	trace.StartSecurebits: true, trace.StartSeccompFilter: true, trace.StartCgroup: true,
	trace.StartIDMap: true, trace.StartAffinity: true,
}

// identityUnapplied returns the identity items that differ between the
// recording and a command started here now through join (nil: as
// envbisect). A recording made before these items existed (no
// securebits item) gives none.
func (r *Recording) identityUnapplied(join *trace.Join) []align.StartDiff {
	recorded := false
	for _, e := range r.Trace.Start {
		if e.Kind == trace.StartSecurebits {
			recorded = true
		}
	}
	if !recorded {
		return nil
	}
	live := launch.LiveIdentity(join)
	pick := func(evs []trace.StartEvent) []trace.StartEvent {
		var out []trace.StartEvent
		for _, e := range evs {
			if identityKinds[e.Kind] {
				out = append(out, e)
			}
		}
		return out
	}
	out := align.CompareStart(pick(r.Trace.Start), pick(live), align.Options{})
	return append(out, mountDiffs(r.Trace.Start, live, r.callPaths())...)
}

// callPaths returns the paths the recorded calls name, in the order
// first named: found by one pass over the trace, the first time asked.
func (r *Recording) callPaths() []string { return r.paths() }

// passPaths is trace.CallPaths over the recording's events.
func (r *Recording) passPaths() []string {
	var out []string
	seen := map[string]bool{}
	r.each(func(ev *trace.Event) {
		if c := ev.Call; c != nil {
			for _, p := range [2]string{c.Path, c.Path2} {
				if p != "" && !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	})
	return out
}

// mountDiffs compares the flags of the mounts that hold paths, in the
// recording (rec) and here (live): a mount point on one side only is
// compared with the mount that holds it on the other (a tmpfs on /tmp
// here, the root file system in the recording).
func mountDiffs(rec, live []trace.StartEvent, paths []string) []align.StartDiff {
	flags := func(evs []trace.StartEvent) map[string]string {
		m := map[string]string{}
		for _, e := range evs {
			if e.Kind == trace.StartMount {
				m[e.Name] = e.Value
			}
		}
		return m
	}
	recFlags, liveFlags := flags(rec), flags(live)
	points := func(m map[string]string) []string {
		out := make([]string, 0, len(m))
		for p := range m {
			out = append(out, p)
		}
		return out
	}
	recPoints, livePoints := points(recFlags), points(liveFlags)
	if len(recPoints) == 0 || len(livePoints) == 0 {
		return nil
	}
	touched := map[string]bool{}
	for _, p := range paths {
		for _, m := range []string{trace.MountOf(p, recPoints), trace.MountOf(p, livePoints)} {
			if m != "" {
				touched[m] = true
			}
		}
	}
	var names []string
	for m := range touched {
		names = append(names, m)
	}
	sort.Strings(names)
	var out []align.StartDiff
	for _, m := range names {
		good := recFlags[trace.MountOf(m, recPoints)]
		here := liveFlags[trace.MountOf(m, livePoints)]
		if good == here {
			continue
		}
		out = append(out, align.StartDiff{Kind: trace.StartMount, Name: m,
			A: &trace.StartEvent{Kind: trace.StartMount, Name: m, Value: good},
			B: &trace.StartEvent{Kind: trace.StartMount, Name: m, Value: here}})
	}
	return out
}

// DeniedHere returns the names of the system calls the command made in
// the recording, not denied there, that the seccomp filters of join's
// exec spec deny (run in a BPF interpreter with the recorded arguments),
// in the order first made: what `--security-opt seccomp=...` takes from
// the command here.
func (r *Recording) DeniedHere(join *trace.Join) []string {
	if join == nil || join.Exec == nil || len(join.Exec.Seccomp) == 0 {
		return nil
	}
	type key struct {
		nr   uint32
		args [6]uint64
	}
	denies := launch.FilterDenies(join.Exec.Seccomp)
	seen := map[key]bool{}
	named := map[string]bool{}
	var out []string
	r.each(func(ev *trace.Event) {
		c := ev.Call
		if c == nil || c.Denied {
			return
		}
		k := key{c.Nr, c.Args}
		if seen[k] {
			return
		}
		seen[k] = true
		if denies(c.Nr, c.Args) == 0 {
			return
		}
		if row := r.Table.ByNr(int(c.Nr)); row != nil && !named[row.Name] {
			named[row.Name] = true
			out = append(out, row.Name)
		}
	})
	return out
}
