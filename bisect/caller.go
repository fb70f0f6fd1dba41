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
	main := map[uint32]uint32{1: 1}
	exes := map[uint32]string{}
	for _, ev := range events {
		if ev.Call != nil && ev.Call.Seq >= c.Seq {
			break
		}
		e := ev.Proc
		if e == nil {
			continue
		}
		switch e.Kind {
		case trace.Spawn:
			main[e.Proc] = e.Thread
			if e.Parent != 0 {
				exes[e.Proc] = exes[e.Parent]
			}
		case trace.Exec:
			if e.Exe != "" {
				exes[e.Proc] = e.Exe
			}
		}
	}
	p := strconv.FormatUint(uint64(c.Proc), 10)
	if m, ok := main[c.Proc]; ok && m == c.Thread {
		return "[" + p + "]", exes[c.Proc]
	}
	return "[" + p + ":" + strconv.FormatUint(uint64(c.Thread), 10) + "]", exes[c.Proc]
}
