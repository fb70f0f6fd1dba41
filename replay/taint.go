package replay

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/ptrace"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/verdict"
)

// Taint is a reason why a run's outcome can be an artifact of replay
// rather than the environment's doing.
type Taint struct {
	// Seq is the live call that met a stand-in, or the recorded call
	// that never happened (Kind "skipped-exec"); 0 for a process.
	Seq uint64 `json:"seq,omitempty"`
	// Kind is "stand-in-error" (a live call failed on a stand-in with an
	// error a real object would not give), "stand-in-empty" (a live
	// read got nothing from an empty stand-in where the recording read
	// data, or that the recording does not have), "skipped-exec" (the
	// run passed, and a recorded exec never happened) or
	// "excluded-data" (a replayed call returned data the trace left out
	// with --exclude-content: the program saw the recorded length and
	// bytes that are not the recorded ones), "skipped-process" (the run
	// passed, and recorded processes never
	// started) or "unreached" (the run passed, and its processes that
	// ended by themselves reached less than half of their recorded calls:
	// unreached.go).
	Kind string `json:"kind"`
	Why  string `json:"why"`
}

func (t Taint) String() string { return t.Why }

// standInErrnos are the errors a live call gets from a stand-in memfd
// because it is not the object the program believes it holds: not a
// socket, not seekable like a pipe, not a device, an fd the stand-in did
// not provide.
var standInErrnos = [...]unix.Errno{unix.ENOTSOCK, unix.EBADF, unix.ESPIPE, unix.EINVAL, unix.ENODEV}

// maxTaintProcs bounds the recorded processes a taint names.
const maxTaintProcs = 3

// MetStandIn is the ptrace.StandInObserver's: live call c, whose result
// the program sees, returned 0 or failed on stand-in s.
func (e *engine) MetStandIn(c *trace.Call, d ptrace.Decision, s ptrace.StandIn) {
	row := e.tab.ByNr(int(c.Nr))
	what := "stand-in"
	if s.For != "" {
		what += " for " + s.For
	}
	switch {
	case c.Ret < 0:
		errno := unix.Errno(-c.Ret)
		for _, want := range standInErrnos {
			if errno == want {
				e.taint(Taint{Seq: c.Seq, Kind: "stand-in-error",
					Why: fmt.Sprintf("live %s on a %s (fd %d) failed with %s", row.Name, what, s.FD, unix.ErrnoName(errno))})
				return
			}
		}
	case row.ReadsData && s.Size == 0:
		switch {
		case d.Rec == nil:
			e.taint(Taint{Seq: c.Seq, Kind: "stand-in-empty",
				Why: fmt.Sprintf("live %s got nothing from an empty %s (fd %d), a read the recording does not have", row.Name, what, s.FD)})
		case d.Rec.Ret > 0:
			e.taint(Taint{Seq: c.Seq, Kind: "stand-in-empty",
				Why: fmt.Sprintf("live %s got nothing from an empty %s (fd %d) where recorded call %d read %d bytes", row.Name, what, s.FD, d.Rec.Seq, d.Rec.Ret)})
		}
	}
}

// excludedData taints the run when replayed call rc gives the program
// data the trace does not hold (--exclude-content): the recorded result
// says the buffer was filled, and nothing can be written into it, so
// the program goes on with bytes that are neither the good
// environment's nor this one's (an interpreter reading a script whose
// content was left out sees zeros).
func (e *engine) excludedData(c, rc *trace.Call) {
	for _, m := range rc.Mem {
		if m.Dir != trace.Out || m.Flag&trace.Excluded == 0 || m.Len == 0 {
			continue
		}
		row := e.tab.ByNr(int(c.Nr))
		what := row.Name
		if rc.Path != "" {
			what += " of " + rc.Path
		}
		e.taint(Taint{Seq: c.Seq, Kind: "excluded-data",
			Why: fmt.Sprintf("replayed %s (recorded call %d) gave the program %d bytes the trace left out (--exclude-content)", what, rc.Seq, m.Len)})
		return
	}
}

// taint keeps a reason, once per kind and object: a loop reading an
// empty stand-in says so once.
func (e *engine) taint(t Taint) {
	for _, o := range e.res.Taints {
		if o.Kind == t.Kind && o.Why == t.Why {
			return
		}
	}
	e.res.Taints = append(e.res.Taints, t)
}

// execSeen notes that recorded call rc, matched by a live call, is an
// exec: it happened in this run.
func (e *engine) execSeen(row *systable.Syscall, rc *trace.Call) {
	if row.Effects&systable.ExecsImage != 0 {
		e.execs[rc.Seq] = true
	}
}

// skippedWork taints a passing run that skipped recorded work: a
// recorded exec, after the command's own, that succeeded in a process
// the run had and never happened, or recorded processes that never
// started (more than the live processes that matched none). The command
// may then have passed without doing what it did where it worked (an
// interpreter that read an empty script, a driver whose job did not
// run).
func (e *engine) skippedWork(v verdict.Verdict) {
	if v != verdict.Pass {
		return
	}
	b := e.bind
	var missing []uint32
	for id, rp := range e.rec.procs {
		if !b.taken[rp.main] {
			missing = append(missing, id)
			continue
		}
		rt := e.rec.threads[rp.main]
		for i, pos := range rt.calls {
			seq := e.rec.Graph.SeqAt(int(pos))
			// The syscall is in the graph: only the execs are read.
			if nr, _ := e.rec.Graph.Syscall(seq); e.tab.ByNr(nr).Effects&systable.ExecsImage == 0 {
				continue
			}
			c := e.rec.call(seq)
			if c.Ret < 0 || (i == 0 && id == e.rec.root) || e.execs[c.Seq] {
				continue
			}
			e.taint(Taint{Seq: c.Seq, Kind: "skipped-exec",
				Why: fmt.Sprintf("passed, but recorded call %d (execve %s in [%d]) never happened", c.Seq, c.Path, id)})
		}
	}
	unbound := 0
	for _, p := range b.procs {
		if p.rec == 0 {
			unbound++
		}
	}
	if len(missing) > unbound {
		slices.Sort(missing)
		names := make([]string, 0, min(len(missing), maxTaintProcs))
		for _, id := range missing[:min(len(missing), maxTaintProcs)] {
			names = append(names, strings.TrimSpace(fmt.Sprintf("[%d] %s", id, e.rec.exe(id))))
		}
		e.taint(Taint{Kind: "skipped-process",
			Why: fmt.Sprintf("passed, but %d recorded processes never started (of %s)", len(missing)-unbound, strings.Join(names, ", "))})
	}
}
