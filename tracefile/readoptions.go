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
	return readAll(r)
}
