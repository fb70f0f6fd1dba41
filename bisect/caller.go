package bisect

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/envbisect/envbisect/trace"
)

// caller returns who made c as show prints it ("[1]" for the main thread
// of process 1, "[2:5]" for thread 5 of process 2) and the image c's
// process ran when it made c, read from the trace's process events up to
// c. Without events, the exe is "" and only thread 1 of process 1 is
// known to be a main thread.
func caller(o *Options, c *trace.Call) (who, exe string) {
	ps := newProcNames()
	o.eachEvent(func(ev *trace.Event) bool {
		if ev.Call != nil && ev.Call.Seq >= c.Seq {
			return false
		}
		ps.see(ev.Proc)
		return true
	})
	return ps.of(c)
}

// errStopPass ends a pass of Options.EachEvent early.
var errStopPass = errors.New("end of the pass")

// eachEvent passes over the trace's events in order (EachEvent, or
// Events) while fn returns true. A pass over the trace file that fails
// (the file changed since it was read) is a panic naming it: what the
// report is made of must not be made of part of the trace.
func (o *Options) eachEvent(fn func(ev *trace.Event) bool) {
	if o.EachEvent == nil {
		for i := range o.Events {
			if !fn(&o.Events[i]) {
				return
			}
		}
		return
	}
	err := o.EachEvent(func(ev *trace.Event) error {
		if !fn(ev) {
			return errStopPass
		}
		return nil
	})
	if err != nil && err != errStopPass {
		panic(fmt.Errorf("locate: %w", err))
	}
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
