package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// eventStream reads a trace's events one at a time, for the commands
// that stream a trace several times instead of holding it (deps, diff).
// A trace cut short ends quietly after its last complete frame; cut
// says whether it was.
type eventStream struct {
	r    *tracefile.Reader
	path string
	n    int
	cut  error // the error that ended a trace cut short
	done bool
}

// openEvents opens the trace at path, reading as o says.
func openEvents(path string, o tracefile.ReadOptions) (*eventStream, error) {
	r, err := o.Open(path)
	if err != nil {
		return nil, nameFile(path, err)
	}
	return &eventStream{r: r, path: path}, nil
}

// next returns the next event, or nil after the last one. It fails for
// a damaged trace, and when ctx is done.
func (e *eventStream) next(ctx context.Context) (*trace.Event, error) {
	if e.done {
		return nil, nil
	}
	if e.n++; e.n%(1<<16) == 0 && ctx.Err() != nil {
		return nil, errors.New("interrupted")
	}
	ev, err := e.r.Next()
	switch {
	case err == io.EOF:
		e.done = true
		return nil, nil
	case errors.Is(err, tracefile.ErrTruncated):
		e.done, e.cut = true, err
		return nil, nil
	case err != nil:
		return nil, nameFile(e.path, err)
	}
	return &ev, nil
}

// warnCut prints the warning of a trace cut short, if it is.
func (e *eventStream) warnCut(s streams) {
	if e.cut != nil {
		fmt.Fprintf(s.err, "warning: %s: %s\n", e.path, strings.TrimPrefix(e.cut.Error(), "read trace "+e.path+": "))
	}
}

// close closes the trace.
func (e *eventStream) close() { e.r.Close() }

// streamEvents reads the events of the trace at path in order into add,
// reading as o says, and returns its start events. A trace cut short
// ends after its last complete frame, with a warning when warn is set.
func streamEvents(ctx context.Context, path string, s streams, warn bool, o tracefile.ReadOptions, add func(*trace.Event)) ([]trace.StartEvent, bool, error) {
	e, err := openEvents(path, o)
	if err != nil {
		return nil, false, err
	}
	defer e.close()
	for {
		ev, err := e.next(ctx)
		if err != nil {
			return nil, false, err
		}
		if ev == nil {
			break
		}
		add(ev)
	}
	if warn {
		e.warnCut(s)
	}
	return e.r.Start(), e.cut != nil, nil
}
