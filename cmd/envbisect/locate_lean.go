package main

import (
	"github.com/envbisect/envbisect/envdiff"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/replay"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// The object search reads the trace as a stream (issue 29, memory that
// does not grow with the trace): each event goes to envdiff's Inspector,
// which keeps per path the little it needs, and the Trace it gets holds
// the header, start and end events and file objects, but of the events
// only those its setup reads:
//
//   - every process event, and the call after each exec of its process
//     (checkSameCommand: the recorded executable);
//   - the first call that names each path (the mounts the start items
//     compare: replay's callPaths);
//   - in a container whose seccomp filters deny calls, the first call of
//     each kind they deny (replay's DeniedHere).
//
// Those calls keep no buffers. Each cause's first call is read again
// from the trace for the report (firstCalls), and the whole trace only
// when the search falls back to call-level runs (reloadStoreRecording).

// prepareObjectSearch returns locate's prepare step for the object
// search: prepareReplay without the dependency graph (replay.PrepareStart)
// and reading the trace as a stream, with *walked set to the Inspector
// that walked its calls.
func prepareObjectSearch(walked **envdiff.Inspector) func(string, streams, *containerFlags) (*tracefile.Trace, *replay.Recording, runSite, error) {
	return func(path string, s streams, where *containerFlags) (*tracefile.Trace, *replay.Recording, runSite, error) {
		var site runSite
		var err error
		if site.join, site.env, site.dir, err = where.resolve(); err != nil {
			return nil, nil, site, err
		}
		t, in, err := readLean(path, s, site.join)
		if err != nil {
			return nil, nil, site, withCode(exitError, err)
		}
		rec, err := startRecording(path, s, t)
		if err != nil {
			return nil, nil, site, err
		}
		where.warnWhere(s, path, &t.Header)
		*walked = in
		return t, rec, site, nil
	}
}

// readLean reads the trace at path as the object search does (see
// above), for runs through join (nil: here). The Inspector is nil when
// the trace's architecture has no syscall table here: replay's checks
// then refuse the trace. A trace cut short is used with a warning.
func readLean(path string, s streams, join *trace.Join) (*tracefile.Trace, *envdiff.Inspector, error) {
	r, err := tracefile.Open(path)
	if err != nil {
		return nil, nil, nameFile(path, err)
	}
	h := *r.Header()
	r.Close()
	l := &leanEvents{execs: map[uint32]bool{}, paths: map[string]bool{}}
	o := tracefile.ReadOptions{Keep: l.keep}
	if tab, err := systable.New(h.Arch); err == nil {
		l.table = tab
		l.in = envdiff.NewInspector(tab, h.Arch)
		o.KeepData = envdiff.DataUsed(tab)
		if join != nil && join.Exec != nil && len(join.Exec.Seccomp) > 0 {
			l.denies = launch.FilterDenies(join.Exec.Seccomp)
			l.named, l.asked = map[string]bool{}, map[callKey]bool{}
		}
	}
	t, _, err := readTraceWith(path, s, o)
	if err != nil {
		return nil, nil, err
	}
	return t, l.in, nil
}

// leanEvents is the Keep of the object search's read of a trace.
type leanEvents struct {
	table *systable.Table    // nil: an architecture without a table here
	in    *envdiff.Inspector // every event goes to it
	execs map[uint32]bool    // processes whose next call follows an exec
	paths map[string]bool    // the paths a kept call named
	// denies are the seccomp filters of the container the runs join (nil:
	// none); named the kinds of call (syscall table rows) they deny that a
	// kept call made, asked the calls they were asked about.
	denies func(nr uint32, args [6]uint64) int
	named  map[string]bool
	asked  map[callKey]bool
}

// callKey is a call as seccomp filters see it.
type callKey struct {
	nr   uint32
	args [6]uint64
}

// maxAsked bounds the calls leanEvents remembers asking the filters
// about: past it, a call is asked again (a few microseconds) rather than
// held.
const maxAsked = 1 << 16

// keep gives ev to the Inspector and says whether the Trace holds it.
func (l *leanEvents) keep(ev *trace.Event) bool {
	if l.in != nil {
		l.in.Add(ev)
	}
	if p := ev.Proc; p != nil {
		if p.Kind == trace.Exec {
			l.execs[p.Proc] = true
		}
		return true
	}
	c := ev.Call
	if c == nil {
		return false
	}
	kept := false
	if l.execs[c.Proc] {
		delete(l.execs, c.Proc)
		kept = true
	}
	for _, p := range [2]string{c.Path, c.Path2} {
		if p != "" && !l.paths[p] {
			l.paths[p] = true
			kept = true
		}
	}
	if l.denied(c) {
		kept = true
	}
	if kept {
		c.Mem = nil // nothing the setup reads
	}
	return kept
}

// denied reports whether c is the first call of its kind that the
// container's filters deny here and did not in the recording.
func (l *leanEvents) denied(c *trace.Call) bool {
	if l.denies == nil || c.Denied {
		return false
	}
	row := l.table.ByNr(int(c.Nr))
	if row == nil || l.named[row.Name] {
		return false
	}
	k := callKey{c.Nr, c.Args}
	if l.asked[k] {
		return false
	}
	if len(l.asked) < maxAsked {
		l.asked[k] = true
	}
	if l.denies(c.Nr, c.Args) == 0 {
		return false
	}
	l.named[row.Name] = true
	return true
}

// firstCalls reads the calls seqs of the trace at path again, whole, and
// returns them by seq: the trace is read up to the last of them only.
func firstCalls(path string, seqs map[uint64]bool) (map[uint64]*trace.Call, error) {
	out := map[uint64]*trace.Call{}
	if len(seqs) == 0 {
		return out, nil
	}
	last := uint64(0)
	for q := range seqs {
		last = max(last, q)
	}
	keep := func(c *trace.Call, _ *trace.Mem) bool { return seqs[c.Seq] }
	r, err := tracefile.ReadOptions{KeepData: keep}.Open(path)
	if err != nil {
		return nil, nameFile(path, err)
	}
	defer r.Close()
	for len(out) < len(seqs) {
		ev, err := r.Next()
		if err != nil {
			break // a trace cut short, or damaged since: the calls read so far
		}
		if c := ev.Call; c != nil && seqs[c.Seq] {
			out[c.Seq] = c
		}
		if c := ev.Call; c != nil && c.Seq >= last {
			break
		}
	}
	return out, nil
}
