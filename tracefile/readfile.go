package tracefile

import (
	"errors"
	"fmt"
	"io"

	"github.com/envbisect/envbisect/trace"
)

// Trace is a whole trace: its events in memory, and the file objects it
// holds (format version 2) with their content left in the file until it
// is asked for.
type Trace struct {
	Header trace.Header
	Start  []trace.StartEvent
	Events []trace.Event
	End    *trace.End // nil when the trace was cut short
	// Files are the trace's file objects, in the order of their file
	// frames; Call.Obj names them by ID.
	Files []trace.FileObject

	content *contents // where the chunks are; nil for a Trace built in memory
	name    string    // the path, for messages
}

// ReadFile reads the whole trace file path. The file objects' content is
// not read: the Trace remembers path and where each chunk is, and
// OpenContent reads them from the file when asked.
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
	r.content.open = readerAtFile(path)
	return readAll(r)
}

// readAll reads the rest of r into a Trace, as ReadFile documents.
func readAll(r *Reader) (*Trace, error) { return readAllKeep(r, nil) }

// readAllKeep is readAll holding only the events keep says (nil: all).
func readAllKeep(r *Reader, keep func(*trace.Event) bool) (*Trace, error) {
	t := &Trace{Header: *r.Header(), content: r.content, name: r.name}
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, ErrTruncated) {
				t.Start, t.Files = r.Start(), r.Files()
				return t, err
			}
			return nil, err
		}
		if keep == nil || keep(&ev) {
			t.Events = append(t.Events, ev)
		}
	}
	t.Start, t.End, t.Files = r.Start(), r.End(), r.Files()
	return t, nil
}

// File returns the file object with id, or nil (an ID whose file frame
// the trace lacks: it was cut short before it).
func (t *Trace) File(id uint32) *trace.FileObject {
	if t.content != nil {
		return t.content.file(id)
	}
	for i := range t.Files {
		if t.Files[i].ID == id {
			return &t.Files[i]
		}
	}
	return nil
}

// OpenContent streams f's content from the trace file, chunk by chunk,
// checking each chunk and, at the end, f's size and SHA-256: damage is an
// error wrapping ErrCorrupt, content the trace does not hold an error
// wrapping ErrNoContent. It is safe for concurrent use; each reader
// opens the trace file of its own.
func (t *Trace) OpenContent(f *trace.FileObject) (io.ReadCloser, error) {
	rc, err := t.content.openContent(f)
	if err != nil {
		return nil, t.wrap(err)
	}
	return rc, nil
}

// VerifyContent reads the content of every file object the trace stores
// and checks it as OpenContent does, returning every damage found.
func (t *Trace) VerifyContent() error {
	if err := t.content.verifyAll(); err != nil {
		return t.wrap(err)
	}
	return nil
}

func (t *Trace) wrap(err error) error {
	if t.name == "" {
		return err
	}
	return fmt.Errorf("read trace %s: %w", t.name, err)
}

// ContentBytes returns how many bytes of the trace file its chunk frames
// take (frame headers and stored payloads): the part of the file that
// holds the file objects' content, as opposed to the recording's calls.
func (t *Trace) ContentBytes() int64 {
	if t.content == nil {
		return 0
	}
	var n int64
	for _, ref := range t.content.chunks {
		n += frameHeaderSize + int64(ref.length)
	}
	return n
}

// Each calls fn with every event of t in order, as Store.Each does; it
// stops at fn's first error and returns it.
func (t *Trace) Each(fn func(ev *trace.Event) error) error {
	for i := range t.Events {
		if err := fn(&t.Events[i]); err != nil {
			return err
		}
	}
	return nil
}
