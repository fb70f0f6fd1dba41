package tracefile

import (
	"errors"
	"io"

	"github.com/envbisect/envbisect/trace"
)

// Trace is a whole trace in memory.
type Trace struct {
	Header trace.Header
	Start  []trace.StartEvent
	Events []trace.Event
	End    *trace.End // nil when the trace was cut short
}

// ReadFile reads the whole trace file path.
//
// For a trace that was cut short it returns what there is, with End nil,
// together with an error wrapping ErrTruncated: callers may go on with a
// warning. For any other error (a foreign, newer, corrupt or unreadable
// file, or one cut short before its header) it returns a nil Trace.
func ReadFile(path string) (*Trace, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readAll(r)
}

// readAll reads the rest of r into a Trace, as ReadFile documents.
func readAll(r *Reader) (*Trace, error) {
	t := &Trace{Header: *r.Header()}
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, ErrTruncated) {
				t.Start = r.Start()
				return t, err
			}
			return nil, err
		}
		t.Events = append(t.Events, ev)
	}
	t.Start, t.End = r.Start(), r.End()
	return t, nil
}
