package bisect

import (
	"strconv"

	"github.com/envbisect/envbisect/trace"
)

// caller returns who made c as show prints it ("[1]" for the main thread
// of process 1, "[2:5]" for thread 5 of process 2) and the image c's
// process ran when it made c, read from the trace's process events up to
// c. Without events, the exe is "" and only thread 1 of process 1 is
// known to be a main thread.
func caller(events []trace.Event, c *trace.Call) (who, exe string) {
	ps := newProcNames()
	for _, ev := range events {
		if ev.Call != nil && ev.Call.Seq >= c.Seq {
			break
		}
		ps.see(ev.Proc)
	}
	return ps.of(c)
}

// procNames follows the trace's process events to name the caller of a
// call: each process's main thread and the image it runs.
type procNames struct {
	main map[uint32]uint32
	exes map[uint32]string
}

func newProcNames() procNames {
	return procNames{main: map[uint32]uint32{1: 1}, exes: map[uint32]string{}}
}

// see takes one process event (nil: none).
func (ps procNames) see(e *trace.ProcEvent) {
	if e == nil {
		return
	}
	switch e.Kind {
	case trace.Spawn:
		ps.main[e.Proc] = e.Thread
		if e.Parent != 0 {
			ps.exes[e.Proc] = ps.exes[e.Parent]
		}
	case trace.Exec:
		if e.Exe != "" {
			ps.exes[e.Proc] = e.Exe
		}
	}
}

// of is who made c and the image its process runs, as the events seen
// so far say.
func (ps procNames) of(c *trace.Call) (who, exe string) {
	p := strconv.FormatUint(uint64(c.Proc), 10)
	if m, ok := ps.main[c.Proc]; ok && m == c.Thread {
		return "[" + p + "]", ps.exes[c.Proc]
	}
	return "[" + p + ":" + strconv.FormatUint(uint64(c.Thread), 10) + "]", ps.exes[c.Proc]
}
