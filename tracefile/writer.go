package tracefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"

	"github.com/fxamacker/cbor/v2"
	"github.com/klauspost/compress/zstd"

	"github.com/envbisect/envbisect/trace"
)

// Writer appends frames to a trace as a recording goes. Each method that
// writes hands its frames to the kernel in one write before returning and
// keeps nothing back, so a recorder killed at any moment leaves a trace
// that is readable up to its last complete frame.
//
// A Writer's methods are safe for concurrent use with those of its
// ContentWriters (file contents are stored from a goroutine of their
// own); each method holds the Writer while it writes. After a write
// fails it writes nothing more: every later call returns the same error.
type Writer struct {
	mu sync.Mutex // held by every exported method

	name      string // the path, for messages; "" for NewWriter
	w         io.Writer
	f         *os.File // set when the Writer created the file
	dest      output   // Create's: the partial file renamed over the output at the end
	em        cbor.UserBufferEncMode
	zenc      *zstd.Encoder // nil: uncompressed
	threshold int

	off          int64                   // bytes of complete frames in the file
	blobs        map[trace.Hash]struct{} // addresses of the blobs in the file
	chunks       map[trace.Hash]bool     // addresses of the content chunks: true once in the file, false while being written
	fileIDs      map[uint32]struct{}     // IDs of the file objects in the file
	contentLevel Compression
	lastSeq      uint64    // Seq of the last call written
	procs        procTable // the processes introduced so far (log set)
	start        bool      // a start frame was written
	events       bool      // an events frame was written
	closed       bool
	err          error // sticky: the first write error
	stats        Stats
	pending      Stats // counts of the frames in out, added to stats once written

	// Scratch space reused from call to call.
	out      []byte       // the frames of one write
	enc      bytes.Buffer // CBOR of one payload
	blobBuf  []byte       // one blob payload before compression
	evs      []trace.Event
	calls    []trace.Call
	mems     []trace.Mem
	hashes   []trace.Hash
	newBlobs []trace.Hash // blobs added to the map for the frames in out
}

// Stats counts what a Writer wrote.
type Stats struct {
	Frames            uint64 // frames of every type
	Events            uint64 // events in events frames
	Bytes             uint64 // bytes in the file: preamble, frame headers, stored payloads
	Blobs             uint64 // blob frames
	BlobsDeduplicated uint64 // buffers stored as a reference to a blob already in the file
	RawBytes          uint64 // decoded payload bytes of all frames
	StoredBytes       uint64 // stored payload bytes of all frames, after compression

	// File objects (format version 2).
	Files              uint64 // file frames
	Chunks             uint64 // chunk frames
	ChunksDeduplicated uint64 // chunks stored as a reference to one already in the file
	ContentBytes       uint64 // bytes of file content read (stored, deduplicated or not)
	ChunkBytes         uint64 // bytes of content in chunk frames, before compression
	ChunkStored        uint64 // stored payload bytes of chunk frames
}

func (s *Stats) add(o Stats) {
	s.Frames += o.Frames
	s.Events += o.Events
	s.Bytes += o.Bytes
	s.Blobs += o.Blobs
	s.BlobsDeduplicated += o.BlobsDeduplicated
	s.RawBytes += o.RawBytes
	s.StoredBytes += o.StoredBytes
	s.Files += o.Files
	s.Chunks += o.Chunks
	s.ChunksDeduplicated += o.ChunksDeduplicated
	s.ContentBytes += o.ContentBytes
	s.ChunkBytes += o.ChunkBytes
	s.ChunkStored += o.ChunkStored
}

// Stats returns the counts of what has been written so far.
func (w *Writer) Stats() Stats {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stats
}

func (o Options) newWriter(dst io.Writer, f *os.File, name string, h *trace.Header) (*Writer, error) {
	w := &Writer{name: name, procs: procTable{log: true}, w: dst, f: f, blobs: make(map[trace.Hash]struct{}), chunks: make(map[trace.Hash]bool),
		fileIDs:      make(map[uint32]struct{}),
		contentLevel: o.contentCompression()}
	if h == nil {
		return nil, w.errorf("no header")
	}
	var err error
	if w.threshold, err = o.threshold(); err != nil {
		return nil, w.errorf("%w", err)
	}
	if w.em, err = newEncMode(); err != nil {
		return nil, w.errorf("%w", err)
	}
	if w.zenc, err = newZstdEncoder(o.Compression); err != nil {
		return nil, w.errorf("%w", err)
	}
	w.out = appendPreamble(w.out)
	w.pending.Bytes = preambleSize
	if err := w.appendCBOR(frameHeader, h); err != nil {
		return nil, err
	}
	if err := w.flush(); err != nil {
		return nil, err
	}
	return w, nil
}

// WriteStart writes the start events: the state the command inherited. It
// may be called once, before the first WriteEvents.
func (w *Writer) WriteStart(start []trace.StartEvent) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	switch {
	case w.start:
		return w.errorf("start events written twice")
	case w.events:
		return w.errorf("start events written after events")
	}
	if start == nil {
		start = []trace.StartEvent{}
	}
	if err := w.appendCBOR(frameStart, start); err != nil {
		return err
	}
	if err := w.flush(); err != nil {
		return err
	}
	w.start = true
	return nil
}

// WriteEvents writes the next events of the recording, in order: the blob
// frames of buffers not yet in the file, then one events frame (more only
// for a batch too large for one frame). Buffers of at least the blob
// threshold are stored out of line; the caller's events are not modified
// and may be reused once WriteEvents returns.
//
// Events that break the format's invariants (see docs/trace-format.md) are
// refused with an error and nothing is written; the Writer stays usable.
func (w *Writer) WriteEvents(evs []trace.Event) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	if len(evs) == 0 {
		return nil
	}
	seq := w.lastSeq
	for i := range evs {
		var err error
		if seq, err = checkEvent(&evs[i], seq); err != nil {
			w.procs.rollback()
			return w.errorf("invalid event: %w", err)
		}
		if err := checkBlobRefs(&evs[i]); err != nil {
			w.procs.rollback()
			return w.errorf("invalid event: %w", err)
		}
		if err := w.procs.check(&evs[i]); err != nil {
			w.procs.rollback()
			return w.errorf("invalid event: %w", err)
		}
	}
	w.outOfLine(evs)
	if err := w.appendEvents(w.evs); err != nil {
		w.procs.rollback()
		w.discard()
		return err
	}
	w.pending.Events = uint64(len(evs))
	err := w.flush()
	clear(w.evs)
	clear(w.calls)
	clear(w.mems)
	if err != nil {
		w.procs.rollback()
		return err
	}
	w.procs.commit()
	w.lastSeq = seq
	w.events = true
	return nil
}

// appendEvents appends evs as events frames, split so that each frame
// stays within maxFrameEvents and maxFrameEncoded.
func (w *Writer) appendEvents(evs []trace.Event) error {
	for len(evs) > 0 {
		n := min(len(evs), maxFrameEvents)
		for {
			w.enc.Reset()
			if err := w.em.MarshalToBuffer(evs[:n], &w.enc); err != nil {
				return w.errorf("encode events: %w", err)
			}
			if w.enc.Len() <= maxFrameEncoded || n == 1 {
				break
			}
			n /= 2
		}
		if err := w.appendFrame(frameEvents, w.enc.Bytes()); err != nil {
			return err
		}
		evs = evs[n:]
	}
	return nil
}

// Close writes the end frame, flushes the file to stable storage and
// closes it. A nil end writes an empty one. If an earlier write failed,
// Close writes no end frame, closes the file and returns that error.
func (w *Writer) Close(end *trace.End) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.errorf("already closed")
	}
	err := w.err
	if err == nil {
		if end == nil {
			end = &trace.End{}
		}
		if err = w.appendCBOR(frameEnd, end); err == nil {
			err = w.flush()
		}
	}
	return errors.Join(err, w.finish())
}

// Abort closes the trace without an end frame, after flushing it to stable
// storage: readers will report it as cut short. It is for a recording that
// failed; everything written so far stays readable.
func (w *Writer) Abort() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.errorf("already closed")
	}
	return w.finish()
}

// Discard closes the trace and removes it, for a recording in which
// nothing ran: an output that existed before Create stays as it was. A
// Writer made by NewWriter only stops writing.
func (w *Writer) Discard() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.errorf("already closed")
	}
	w.closed = true
	if w.zenc != nil {
		w.zenc.Close()
	}
	var err error
	if w.f != nil {
		err = w.f.Close()
	}
	w.dest.discard()
	return err
}

// finish syncs and closes the file and marks the Writer closed.
func (w *Writer) finish() error {
	w.closed = true
	if w.zenc != nil {
		w.zenc.Close()
	}
	var errs []error
	if s, ok := w.w.(interface{ Sync() error }); ok {
		if err := s.Sync(); err != nil && !unsyncable(err) {
			errs = append(errs, w.ioError(err))
		}
	}
	if w.f != nil {
		if err := w.f.Close(); err != nil {
			errs = append(errs, w.ioError(err))
		}
	}
	if err := w.dest.commit(); err != nil {
		errs = append(errs, w.errorf("%w", err))
	}
	return errors.Join(errs...)
}

// unsyncable tells whether a failed fsync means only that the file (a
// pipe, a terminal) has no stable storage to flush to.
func unsyncable(err error) bool {
	return errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EROFS)
}

func (w *Writer) usable() error {
	if w.closed {
		return w.errorf("already closed")
	}
	return w.err
}

// appendCBOR appends a frame of type t whose payload is v in CBOR.
func (w *Writer) appendCBOR(t frameType, v any) error {
	w.enc.Reset()
	if err := w.em.MarshalToBuffer(v, &w.enc); err != nil {
		return w.errorf("encode %s: %w", t, err)
	}
	return w.appendFrame(t, w.enc.Bytes())
}

var zeroFrameHeader [frameHeaderSize]byte

// appendFrame appends a frame of type t with decoded payload raw to out,
// compressed when that makes it smaller.
func (w *Writer) appendFrame(t frameType, raw []byte) error {
	if len(raw) > MaxDecodedPayload {
		return w.errorf("a %s frame of %d bytes is over the limit of %d", t, len(raw), MaxDecodedPayload)
	}
	start := len(w.out)
	w.out = append(w.out, zeroFrameHeader[:]...)
	var flags uint8
	if w.zenc != nil && len(raw) >= minCompressBytes {
		w.out = w.zenc.EncodeAll(raw, w.out)
		if len(w.out)-start-frameHeaderSize < len(raw) {
			flags = flagZstd
		} else {
			w.out = w.out[:start+frameHeaderSize]
		}
	}
	if flags == 0 {
		w.out = append(w.out, raw...)
	}
	payload := w.out[start+frameHeaderSize:]
	if len(payload) > MaxStoredPayload {
		w.out = w.out[:start]
		return w.errorf("a %s frame of %d bytes is over the limit of %d", t, len(payload), MaxStoredPayload)
	}
	putFrameHeader(w.out[start:start+frameHeaderSize], t, flags, payload)
	w.pending.Frames++
	w.pending.Bytes += uint64(frameHeaderSize + len(payload))
	w.pending.RawBytes += uint64(len(raw))
	w.pending.StoredBytes += uint64(len(payload))
	return nil
}

// flush writes out with one write. On failure the file is cut back to its
// last complete frame, when the Writer owns it, and the Writer is done.
func (w *Writer) flush() error {
	err := w.writeFrames(w.out, w.pending)
	w.pending = Stats{}
	w.newBlobs = w.newBlobs[:0]
	w.out = shrink(w.out[:0])
	return err
}

// writeFrames writes complete frames b, whose counts are st, with one
// write; w.mu is held. On failure the file is cut back to its last
// complete frame, when the Writer owns it, and the Writer is done.
func (w *Writer) writeFrames(b []byte, st Stats) error {
	n, err := w.w.Write(b)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		if w.f != nil {
			// Best effort, for regular files: a reader copes with a
			// partial frame too.
			w.f.Truncate(w.off)
		}
		w.err = w.ioError(err)
		return w.err
	}
	w.off += int64(len(b))
	w.stats.add(st)
	return nil
}

// discard drops the frames in out after an encoding error, forgetting the
// blobs they would have added.
func (w *Writer) discard() {
	for _, h := range w.newBlobs {
		delete(w.blobs, h)
	}
	w.newBlobs = w.newBlobs[:0]
	w.out = shrink(w.out[:0])
	w.pending = Stats{}
	clear(w.evs)
	clear(w.calls)
	clear(w.mems)
}

// shrink drops a scratch buffer that a huge frame made huge.
func shrink(b []byte) []byte {
	if cap(b) > 4<<20 {
		return nil
	}
	return b
}

func (w *Writer) prefix() string {
	if w.name == "" {
		return "write trace"
	}
	return "write trace " + w.name
}

func (w *Writer) errorf(format string, args ...any) error {
	return fmt.Errorf(w.prefix()+": "+format, args...)
}

// ioError wraps a failed write, sync or close, saying "disk full" plainly
// for ENOSPC.
func (w *Writer) ioError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is in the prefix already
	}
	if errors.Is(err, syscall.ENOSPC) {
		return w.errorf("disk full: %w", err)
	}
	return w.errorf("%w", err)
}
