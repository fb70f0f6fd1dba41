package tracefile

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"slices"

	"github.com/klauspost/compress/zstd"

	"github.com/envbisect/envbisect/trace"
)

// ErrNoContent is wrapped by OpenContent's error for a file object whose
// content the trace does not hold (excluded, over budget, unreadable at
// record time, or a trace without file objects).
var ErrNoContent = errors.New("content not in the trace")

// openContent streams f's content from the chunks c knows, checking each
// chunk's frame checksum and address and, at the end, f's size and
// SHA-256. Damage is reported wrapping ErrCorrupt, naming f's path.
func (c *contents) openContent(f *trace.FileObject) (io.ReadCloser, error) {
	if f == nil {
		return nil, fmt.Errorf("no file object: %w", ErrNoContent)
	}
	if !f.Stored() {
		why := f.Why
		if why == "" {
			why = "no chunks"
		}
		return nil, fmt.Errorf("content of %s: %s: %w", f.Path, why, ErrNoContent)
	}
	if c == nil {
		return nil, fmt.Errorf("content of %s: the trace holds no file contents: %w", f.Path, ErrNoContent)
	}
	refs := make([]chunkRef, len(f.Chunks))
	for i, h := range f.Chunks {
		ref, ok := c.chunks[h]
		if !ok {
			// Stored in a blob frame (the bytes of a read).
			var err error
			if ref.data, ok, err = c.blobData(h); err != nil {
				return nil, fmt.Errorf("content of %s: %w", f.Path, err)
			}
		}
		if !ok {
			return nil, &formatError{kind: ErrCorrupt, msg: fmt.Sprintf(
				"content of %s: chunk %x is not in the trace", f.Path, h[:])}
		}
		refs[i] = ref
	}
	cr := &contentReader{f: f, refs: refs, sum: sha256.New(), release: func() error { return nil }}
	if c.open != nil && slices.ContainsFunc(refs, func(r chunkRef) bool { return r.data == nil }) {
		ra, release, err := c.open()
		if err != nil {
			return nil, fmt.Errorf("content of %s: %w", f.Path, err)
		}
		cr.ra, cr.release = ra, release
	}
	return cr, nil
}

// contentReader hands out one file object's content chunk by chunk.
type contentReader struct {
	f       *trace.FileObject
	refs    []chunkRef
	next    int // index in refs of the next chunk to load
	ra      io.ReaderAt
	release func() error
	zdec    *zstd.Decoder
	buf     []byte // the rest of the current chunk
	n       int64  // bytes handed out
	sum     hash.Hash
	err     error // sticky
}

func (r *contentReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		if r.next == len(r.refs) {
			r.err = r.finish()
			if r.err == nil {
				r.err = io.EOF
			}
			return 0, r.err
		}
		data, err := r.load(r.f.Chunks[r.next], r.refs[r.next])
		if err != nil {
			r.err = err
			return 0, err
		}
		r.next++
		r.sum.Write(data)
		r.n += int64(len(data))
		r.buf = data
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// finish checks what was handed out against the object's size and hash.
func (r *contentReader) finish() error {
	if r.n != r.f.Size {
		return r.corrupt("its chunks hold %d bytes, its size is %d", r.n, r.f.Size)
	}
	if trace.Hash(r.sum.Sum(nil)) != r.f.SHA256 {
		return r.corrupt("its chunks do not hash to its SHA-256 %x", r.f.SHA256[:])
	}
	return nil
}

// load reads, checks and decodes one chunk.
func (r *contentReader) load(h trace.Hash, ref chunkRef) ([]byte, error) {
	if ref.data != nil {
		return ref.data, nil // a blob frame's bytes, checked when it was read
	}
	if r.zdec == nil && ref.flags&flagZstd != 0 {
		var err error
		if r.zdec, err = newZstdDecoder(hashSize + MaxChunkSize); err != nil {
			return nil, err
		}
	}
	data, err := loadChunk(h, ref, r.ra, r.zdec)
	if err != nil {
		var fe *formatError
		if errors.As(err, &fe) {
			return nil, r.corrupt("%s", fe.msg)
		}
		return nil, fmt.Errorf("content of %s: %w", r.f.Path, err)
	}
	return data, nil
}

// loadChunk reads the chunk frame ref (through ra, unless it kept its
// stored bytes), checks it against what the reader saw and decodes it
// with zdec (needed for a compressed frame), and checks its address h.
// Damage is a *formatError of kind ErrCorrupt.
func loadChunk(h trace.Hash, ref chunkRef, ra io.ReaderAt, zdec *zstd.Decoder) ([]byte, error) {
	corrupt := func(format string, args ...any) error {
		return &formatError{kind: ErrCorrupt, msg: fmt.Sprintf(format, args...)}
	}
	stored := ref.stored
	if stored == nil {
		frame := make([]byte, frameHeaderSize+int(ref.length))
		if _, err := ra.ReadAt(frame, ref.off); err != nil {
			if err == io.EOF {
				return nil, corrupt("the chunk frame at offset %d is cut short", ref.off)
			}
			return nil, fmt.Errorf("read chunk at offset %d: %w", ref.off, err)
		}
		want := frameChunk
		if ref.blob {
			want = frameBlob
		}
		if frameType(frame[0]) != want || frame[1] != ref.flags ||
			binary.LittleEndian.Uint32(frame[4:8]) != ref.length || binary.LittleEndian.Uint32(frame[8:12]) != ref.crc {
			return nil, corrupt("the chunk frame at offset %d changed since the trace was read", ref.off)
		}
		stored = frame[frameHeaderSize:]
		if frameCRC(frame, stored) != ref.crc {
			return nil, corrupt("chunk frame at offset %d: checksum mismatch", ref.off)
		}
	}
	payload := stored
	minData, maxData, what := 1, MaxChunkSize, "chunk"
	if ref.blob {
		minData, maxData, what = 0, MaxBlobSize, "blob"
	}
	if ref.flags&flagZstd != 0 {
		var err error
		if err = checkZstdHeader(stored); err == nil {
			payload, err = zdec.DecodeAll(stored, nil)
		}
		if err != nil || len(payload) > hashSize+maxData {
			return nil, corrupt("%s frame at offset %d does not decompress within %d bytes", what, ref.off, hashSize+maxData)
		}
	}
	if len(payload) < hashSize || !bytes.Equal(payload[:hashSize], h[:]) {
		return nil, corrupt("%s frame at offset %d does not hold %s %x", what, ref.off, what, h[:])
	}
	data := payload[hashSize:]
	if len(data) < minData || len(data) > maxData || ref.blob && len(data) != ref.size {
		return nil, corrupt("%s frame at offset %d holds %d bytes, not %d to %d", what, ref.off, len(data), minData, maxData)
	}
	if sha256.Sum256(data) != h {
		return nil, corrupt("%s %x (frame at offset %d) does not match its address", what, h[:], ref.off)
	}
	return data, nil
}

func (r *contentReader) corrupt(format string, args ...any) error {
	return &formatError{kind: ErrCorrupt, msg: fmt.Sprintf("content of %s: ", r.f.Path) + fmt.Sprintf(format, args...)}
}

// Close releases the trace file the reader read from.
func (r *contentReader) Close() error {
	if r.zdec != nil {
		r.zdec.Close()
		r.zdec = nil
	}
	rel := r.release
	r.release = func() error { return nil }
	if r.err == nil {
		r.err = errors.New("read after Close")
	}
	return rel()
}

// verifyAll reads the content of every stored file object, checking it.
func (c *contents) verifyAll() error {
	if c == nil {
		return nil
	}
	var errs []error
	for i := range c.files {
		f := &c.files[i]
		if !f.Stored() {
			continue
		}
		rc, err := c.openContent(f)
		if err == nil {
			_, err = io.Copy(io.Discard, rc)
			rc.Close()
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
