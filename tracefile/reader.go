package tracefile

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/fxamacker/cbor/v2"
	"github.com/klauspost/compress/zstd"

	"github.com/envbisect/envbisect/trace"
)

// Reader reads a trace frame by frame and hands out its events in order.
// It checks every frame (checksum, limits, payload, the format's
// invariants) before handing out any of its events; see
// docs/trace-format.md for what it refuses and why.
//
// A Reader is not safe for concurrent use.
type Reader struct {
	name    string // the path, for messages; "" for NewReader
	r       *bufio.Reader
	file    *os.File // closed by Close, when Open opened it
	dm      cbor.DecMode
	zdec    *zstd.Decoder            // for chunks stored as blobs, created at its first use
	zdecs   map[uint64]*zstd.Decoder // by limit, for frame payloads (decoderFor)
	zpeek   *zstd.Decoder            // streams the start of compressed chunk frames
	lim     limits
	version uint16
	base    int64 // offset in rd of the preamble, for reading chunks again by offset
	content *contents

	off        int64 // offset of the next unread byte
	haveHeader bool
	header     trace.Header
	start      []trace.StartEvent
	startSeen  bool
	eventsSeen bool
	end        *trace.End
	blobs      map[trace.Hash][]byte
	paths      map[string]string // one copy of each call path (fill)
	// keepData is ReadOptions.KeepData: when set (and the trace can be
	// read again by offset), blob frames are remembered by offset in
	// content.blobRefs and their bytes read only for buffers it keeps.
	keepData func(c *trace.Call, m *trace.Mem) bool
	// onEvents, when set, is told of each events frame once its events
	// are filled in and checked: its offset, its size (header included)
	// and its events (a Store's index).
	onEvents func(off, size int64, evs []trace.Event)

	pending []trace.Event // the events of the last events frame
	next    int           // index of the next one to return
	n       uint64        // events returned
	lastSeq uint64        // Seq of the last call read
	procs   procTable     // the processes introduced so far
	err     error         // sticky

	fh      [frameHeaderSize]byte
	stored  []byte // scratch: the stored payload of the current frame
	decoded []byte // scratch: its decompression
}

// limits bounds what a Reader accepts. Tests lower them.
type limits struct {
	maxStored  int
	maxDecoded int
}

var defaultLimits = limits{maxStored: MaxStoredPayload, maxDecoded: MaxDecodedPayload}

// Open opens the trace file path and reads its preamble and header.
func Open(path string) (*Reader, error) {
	return ReadOptions{}.Open(path)
}

// NewReader reads a trace from rd, starting with its preamble and header,
// which it reads at once.
func NewReader(rd io.Reader) (*Reader, error) {
	return newReader(rd, "", defaultLimits)
}

func newReader(rd io.Reader, name string, lim limits) (*Reader, error) {
	r := &Reader{name: name, r: bufio.NewReaderSize(rd, 64<<10), lim: lim, blobs: make(map[trace.Hash][]byte), content: newContents()}
	r.content.blobs = r.blobs
	if ra, ok := rd.(io.ReaderAt); ok {
		// Chunks are read again by offset when their content is asked
		// for, instead of being kept in memory.
		if sk, ok := rd.(io.Seeker); ok {
			r.base, _ = sk.Seek(0, io.SeekCurrent)
		}
		r.content.open = readerAtShared(ra)
	}
	var err error
	if r.dm, err = newDecMode(); err != nil {
		return nil, r.wrap(err)
	}
	if r.version, err = readPreamble(r.r); err != nil {
		return nil, r.wrap(err)
	}
	r.off = preambleSize
	t, p, off, err := r.readFrame()
	if err == io.EOF {
		err = r.truncated(off, 0)
	}
	if err != nil {
		return nil, r.wrap(err)
	}
	if t != frameHeader {
		return nil, r.wrap(corruptFrame(off, nil, "the first frame is a %s frame, not the header", t))
	}
	if err := r.dm.Unmarshal(p, &r.header); err != nil {
		return nil, r.wrap(corruptPayload(off, err, "header"))
	}
	r.haveHeader = true
	return r, nil
}

// Header returns the trace's header.
func (r *Reader) Header() *trace.Header { return &r.header }

// Start returns the start events. They are known once Next has returned
// the first event, or io.EOF, or an error.
func (r *Reader) Start() []trace.StartEvent { return r.start }

// End returns the end frame, or nil if it has not been read (yet): a trace
// that Next reports as truncated has none.
func (r *Reader) End() *trace.End { return r.end }

// Next returns the next event. Buffers stored out of line have their Data
// filled back in (those ReadOptions.KeepData refuses keep only their Blob
// address and Len); the Data of buffers with the same Blob address share
// one copy, which callers must not modify. Call paths are shared too.
//
// After the last event of a complete trace Next returns io.EOF. A trace
// cut short yields every event of its complete frames, then an error
// wrapping ErrTruncated; a damaged one an error wrapping ErrCorrupt. Once
// Next has returned an error it returns the same one again.
func (r *Reader) Next() (trace.Event, error) {
	for {
		if r.err != nil {
			return trace.Event{}, r.err
		}
		if r.next < len(r.pending) {
			ev := r.pending[r.next]
			r.pending[r.next] = trace.Event{}
			r.next++
			r.n++
			return ev, nil
		}
		if r.end != nil {
			return trace.Event{}, io.EOF
		}
		if err := r.step(); err != nil {
			r.err = r.wrap(err)
		}
	}
}

// decoder returns the Reader's zstd decoder, made at its first use.
func (r *Reader) decoder() (*zstd.Decoder, error) {
	if r.zdec == nil {
		var err error
		if r.zdec, err = newZstdDecoder(uint64(r.lim.maxDecoded)); err != nil {
			return nil, err
		}
	}
	return r.zdec, nil
}

// Version returns the trace's format version.
func (r *Reader) Version() int { return int(r.version) }

// Files returns the file objects read so far, in the order of their file
// frames: all of them once Next has returned io.EOF. A file frame may
// follow the events that name its ID.
func (r *Reader) Files() []trace.FileObject { return r.content.files }

// File returns the file object with id read so far, or nil.
func (r *Reader) File(id uint32) *trace.FileObject { return r.content.file(id) }

// OpenContent streams f's content, reading its chunks from the trace as
// the returned reader is read and checking them and f's SHA-256 (damage
// is an error wrapping ErrCorrupt; content the trace lacks, ErrNoContent).
// For a Reader from Open it is usable until Close; from NewReader over an
// io.ReaderAt (an *os.File, a *bytes.Reader), while that stays readable;
// over another io.Reader the Reader keeps the chunks' stored bytes in
// memory to serve them.
func (r *Reader) OpenContent(f *trace.FileObject) (io.ReadCloser, error) {
	rc, err := r.content.openContent(f)
	if err != nil {
		return nil, r.wrap(err)
	}
	return rc, nil
}

// Close releases the Reader and closes the file Open opened.
func (r *Reader) Close() error {
	if r.zdec != nil {
		r.zdec.Close()
		r.zdec = nil
	}
	for l, d := range r.zdecs {
		d.Close()
		delete(r.zdecs, l)
	}
	if r.zpeek != nil {
		r.zpeek.Close()
		r.zpeek = nil
	}
	if r.file == nil {
		return nil
	}
	f := r.file
	r.file = nil
	if err := f.Close(); err != nil {
		return r.wrap(err)
	}
	return nil
}

// wrap puts the file's path in front of err.
func (r *Reader) wrap(err error) error {
	if r.name == "" {
		return err
	}
	return fmt.Errorf("read trace %s: %w", r.name, err)
}

// truncated reports input that ends at offset off, partial bytes into a
// frame.
func (r *Reader) truncated(off int64, partial int) error {
	if !r.haveHeader {
		return &formatError{kind: ErrTruncated, msg: fmt.Sprintf(
			"trace ends at offset %d before its header frame is complete: the recording was cut short", off+int64(partial))}
	}
	return cutShort(off, partial, r.n)
}
