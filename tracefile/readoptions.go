package tracefile

import (
	"fmt"
	"os"

	"github.com/envbisect/envbisect/trace"
)

// ReadOptions tune how a trace is read. The zero value reads everything
// into memory, as ReadFile and Open do.
type ReadOptions struct {
	// KeepData, when set, is asked about each buffer stored out of line
	// (a blob: Mem.Blob set, DefaultBlobThreshold bytes and more) whether
	// its bytes are wanted. A buffer it refuses keeps its Blob address and
	// Len and has no Data; a buffer it keeps has its Data read from the
	// trace file by offset when its event is read. Blob bytes are then
	// held only for the buffers kept (and their repeats), not for every
	// blob of the trace: a reader whose callers look at few buffers'
	// bytes (deps: sockets' messages, not files' contents) holds little
	// more than the calls. It needs the trace's bytes again by offset
	// (Open, ReadFile); over a plain io.Reader every blob is kept.
	KeepData func(c *trace.Call, m *trace.Mem) bool
	// Keep, when set, is given each event ReadFile reads, in order, and
	// says whether the Trace holds it in Events: the others are read,
	// checked and handed to Keep, and then let go. A caller that needs
	// little of most events (what it computes as they pass, and a few
	// it keeps) holds a trace's header, start, end and file objects, but
	// not its calls. The event's buffers are as KeepData leaves them; a
	// kept event holds what Keep left of it (it may drop the buffers it
	// no longer needs). Open ignores it: a Reader's caller sees every
	// event.
	Keep func(ev *trace.Event) bool
}

// Open opens the trace file path as Open does, reading as o says.
func (o ReadOptions) Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read trace: %w", err)
	}
	r, err := newReader(f, path, defaultLimits)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.file = f
	r.keepData = o.KeepData
	return r, nil
}

// ReadFile reads the whole trace file path as ReadFile does, reading as
// o says.
func (o ReadOptions) ReadFile(path string) (*Trace, error) {
	r, err := o.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	r.content.open = readerAtFile(path)
	return readAllKeep(r, o.Keep)
}

// FillData reads into c the bytes of its buffers that a read with
// ReadOptions.KeepData left in the file (Blob set, Data nil, neither
// excluded nor unreadable at record time), checking them as the reader
// does. Buffers that have their bytes are left as they are. It is safe
// for concurrent use.
func (t *Trace) FillData(c *trace.Call) error {
	if err := fillData(t.content, c); err != nil {
		return t.wrap(err)
	}
	return nil
}

// FillData is Trace.FillData for a call r has read; r must still be
// open. It is not safe for concurrent use.
func (r *Reader) FillData(c *trace.Call) error {
	if err := fillData(r.content, c); err != nil {
		return r.wrap(err)
	}
	return nil
}

// fillData is FillData with the contents of a trace (nil: none).
func fillData(content *contents, c *trace.Call) error {
	for i := range c.Mem {
		m := &c.Mem[i]
		if m.Blob == nil || m.Data != nil || m.Flag&(trace.Excluded|trace.Fault) != 0 || content == nil {
			continue
		}
		data, ok, err := content.blobData(*m.Blob)
		if err == nil && !ok {
			data, ok, err = content.chunkAsBlob(*m.Blob, content.decoder)
		}
		switch {
		case err != nil:
			return fmt.Errorf("call %d, buffer %d: %w", c.Seq, i, err)
		case !ok:
			return &formatError{kind: ErrCorrupt, msg: fmt.Sprintf("call %d references blob %x that the trace does not contain", c.Seq, m.Blob[:])}
		case uint64(len(data)) > m.Len:
			return &formatError{kind: ErrCorrupt, msg: fmt.Sprintf("call %d, buffer %d: %d bytes of data are more than its length %d", c.Seq, i, len(data), m.Len)}
		}
		m.Data = data
	}
	return nil
}
