package tracefile

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"time"

	"github.com/fxamacker/cbor/v2"
	"github.com/klauspost/compress/zstd"

	"github.com/envbisect/envbisect/trace"
)

// ContentWriter stores file objects in a Writer's trace: their content
// as chunk frames, each written once per address in the whole trace, and
// then their file frame. It hashes and compresses on the goroutine that
// calls it, with an encoder of its own, and holds the Writer only for
// each frame's write, so a recorder stores contents off its tracing path
// while the Writer goes on writing events. A ContentWriter is used by one
// goroutine at a time; a Writer may have several.
type ContentWriter struct {
	w    *Writer
	em   cbor.UserBufferEncMode
	zenc *zstd.Encoder // nil: uncompressed
	buf  []byte        // one chunk of content, MaxChunkSize
	out  []byte        // one frame
	enc  bytes.Buffer
}

// NewContentWriter returns a ContentWriter writing into w.
func (w *Writer) NewContentWriter() (*ContentWriter, error) {
	cw := &ContentWriter{w: w}
	var err error
	if cw.em, err = newEncMode(); err != nil {
		return nil, w.errorf("%w", err)
	}
	if cw.zenc, err = newZstdEncoder(w.contentLevel); err != nil {
		return nil, w.errorf("%w", err)
	}
	return cw, nil
}

// Close releases the ContentWriter's encoder. It writes nothing.
func (cw *ContentWriter) Close() {
	if cw.zenc != nil {
		cw.zenc.Close()
		cw.zenc = nil
	}
}

// StoreFile reads src to its end and writes f: its identity as the caller
// filled it in, and Size, SHA256 and Chunks from src. With keep set the
// content is stored as chunks (each chunk once in the trace); without,
// only hashed, and f.Why must say why (trace.ContentExcluded,
// trace.ContentOverBudget). When src fails to read, f is written with Why
// trace.ContentUnreadable, no hash and no chunks. It returns the error of
// a failed write (the trace is then done) or of an invalid f; a read
// error is not one.
func (cw *ContentWriter) StoreFile(f *trace.FileObject, src io.Reader, keep bool) error {
	_, err := cw.storeFile(f, src, keep, false)
	return err
}

// StoreFileEntry is StoreFile that also returns what it stored as a
// ContentCache entry: nil when the content was not kept, did not read, or
// shares a chunk with content the trace held before (whose frame this
// ContentWriter did not make). The entry of a trace that Create made
// holds no content: it names where its chunk frames are in the trace
// file, and ContentCache.Put reads them from there, so a recorder can
// keep the entries of a whole run until it puts them, after the command
// has exited; such an entry can be put until the Writer is closed. The
// entry of a trace written to an io.Writer (NewWriter) or a device holds
// copies of its frames.
func (cw *ContentWriter) StoreFileEntry(f *trace.FileObject, src io.Reader, keep bool) (*CacheEntry, error) {
	return cw.storeFile(f, src, keep, keep)
}

func (cw *ContentWriter) storeFile(f *trace.FileObject, src io.Reader, keep, entry bool) (*CacheEntry, error) {
	if !keep && f.Why == "" {
		return nil, cw.w.errorf("file object %d (%s): content not kept, and no reason given", f.ID, f.Path)
	}
	if cw.buf == nil {
		cw.buf = make([]byte, MaxChunkSize)
	}
	var e *CacheEntry
	if entry {
		e = &CacheEntry{src: cw.w.frameSource()}
	}
	f.Chunks, f.Size = f.Chunks[:0], 0
	var st Stats
	sum := sha256.New()
	var only trace.Hash // of a file of one chunk: its chunk's address is its hash
	single := false
	for first := true; ; first = false {
		n, err := io.ReadFull(src, cw.buf)
		last := err == io.EOF || err == io.ErrUnexpectedEOF
		if n > 0 {
			data := cw.buf[:n]
			f.Size += int64(n)
			st.ContentBytes += uint64(n)
			if keep {
				h, wc, err := cw.writeChunk(data, e != nil && e.src == nil)
				if err != nil {
					return nil, err
				}
				f.Chunks = append(f.Chunks, h)
				if e != nil {
					e = e.add(h, uint32(n), wc)
				}
				if first && last {
					only, single = h, true
				}
			}
			if !single {
				sum.Write(data)
			}
		}
		if last {
			break
		}
		if err != nil {
			f.Why, f.Chunks, f.SHA256 = trace.ContentUnreadable, nil, trace.Hash{}
			return nil, cw.WriteFile(f, st)
		}
	}
	if single {
		f.SHA256 = only
	} else {
		f.SHA256 = trace.Hash(sum.Sum(nil))
	}
	if !keep {
		f.Chunks = nil
	}
	if err := cw.WriteFile(f, st); err != nil {
		return nil, err
	}
	if e != nil {
		e.Size, e.SHA256 = f.Size, f.SHA256
	}
	return e, nil
}

// StoreEntry writes f from a ContentCache entry of its file, read from
// nothing: Size and SHA256 from e, and with keep set its chunks, each
// frame copied into the trace unless the trace has that chunk. The rest
// is as StoreFile.
func (cw *ContentWriter) StoreEntry(f *trace.FileObject, e *CacheEntry, keep bool) error {
	if !keep && f.Why == "" {
		return cw.w.errorf("file object %d (%s): content not kept, and no reason given", f.ID, f.Path)
	}
	if keep && len(e.Chunks) == 0 && e.Size > 0 {
		return cw.w.errorf("file object %d (%s): its cache entry holds no content", f.ID, f.Path)
	}
	f.Size, f.SHA256, f.Chunks = e.Size, e.SHA256, f.Chunks[:0]
	st := Stats{ContentBytes: uint64(e.Size)}
	if keep {
		var buf []byte
		for i, h := range e.Chunks {
			frame, err := e.frame(i, buf)
			if err != nil {
				return cw.w.errorf("file object %d (%s): %w", f.ID, f.Path, err)
			}
			if err := cw.copyChunk(h, frame, e.raw[i]); err != nil {
				return err
			}
			f.Chunks, buf = append(f.Chunks, h), frame[:0]
		}
	} else {
		f.Chunks = nil
	}
	return cw.WriteFile(f, st)
}

// reserve reports whether chunk h is new to the trace, and if so marks it
// as being written by the caller (it must then call written).
func (cw *ContentWriter) reserve(h trace.Hash) bool {
	w := cw.w
	w.mu.Lock()
	defer w.mu.Unlock()
	_, dup := w.chunks[h]
	if _, blob := w.blobs[h]; blob {
		dup = true // the bytes of a read, in a blob frame already
	}
	if dup {
		w.stats.ChunksDeduplicated++
		return false
	}
	w.chunks[h] = false // reserved: this ContentWriter writes it
	return true
}

// written marks chunk h, reserved, as in the trace: events may refer to
// it as a blob from then on.
func (cw *ContentWriter) written(h trace.Hash) {
	cw.w.mu.Lock()
	cw.w.chunks[h] = true
	cw.w.mu.Unlock()
}

// copyChunk writes a cached chunk frame unless the trace has its chunk.
func (cw *ContentWriter) copyChunk(h trace.Hash, frame []byte, raw uint32) error {
	if !cw.reserve(h) {
		return nil
	}
	stored := uint64(len(frame) - frameHeaderSize)
	st := Stats{Frames: 1, Bytes: uint64(len(frame)), RawBytes: uint64(hashSize) + uint64(raw), StoredBytes: stored,
		Chunks: 1, ChunkBytes: uint64(raw), ChunkStored: stored}
	if _, err := cw.write(frame, st); err != nil {
		return err
	}
	cw.written(h)
	return nil
}

// writtenChunk is where writeChunk put a chunk's frame: nowhere (the
// trace had the chunk), or at ref in the trace, with clone set also a
// copy of its bytes.
type writtenChunk struct {
	wrote bool
	ref   frameRef
	frame []byte
}

// writeChunk writes the chunk frame of data unless the trace has it, and
// returns its address and where the frame went.
func (cw *ContentWriter) writeChunk(data []byte, clone bool) (trace.Hash, writtenChunk, error) {
	h := trace.Hash(sha256.Sum256(data))
	if !cw.reserve(h) {
		return h, writtenChunk{}, nil
	}
	// The address goes in a zstd frame of its own, so that a reader
	// learns it by decompressing 32 bytes (readchunk.go).
	cw.out = append(cw.out[:0], zeroFrameHeader[:]...)
	var flags uint8
	if cw.zenc != nil {
		cw.out = cw.zenc.EncodeAll(h[:], cw.out)
		cw.out = cw.zenc.EncodeAll(data, cw.out)
		if len(cw.out)-frameHeaderSize < hashSize+len(data) {
			flags = flagZstd
		} else {
			cw.out = cw.out[:frameHeaderSize]
		}
	}
	if flags == 0 {
		cw.out = append(append(cw.out, h[:]...), data...)
	}
	payload := cw.out[frameHeaderSize:]
	putFrameHeader(cw.out[:frameHeaderSize], frameChunk, flags, payload)
	st := Stats{Frames: 1, Bytes: uint64(len(cw.out)), RawBytes: uint64(hashSize + len(data)), StoredBytes: uint64(len(payload)),
		Chunks: 1, ChunkBytes: uint64(len(data)), ChunkStored: uint64(len(payload))}
	off, err := cw.write(cw.out, st)
	if err != nil {
		return h, writtenChunk{}, err
	}
	wc := writtenChunk{wrote: true, ref: frameRef{off: off, n: len(cw.out)}}
	if clone {
		wc.frame = bytes.Clone(cw.out)
	}
	cw.out = shrink(cw.out)
	cw.written(h)
	return h, wc, nil
}

// WriteFile writes f's file frame as it is; its chunks must be in the
// trace already. st counts what storing f took besides the frame.
func (cw *ContentWriter) WriteFile(f *trace.FileObject, st Stats) error {
	if err := cw.awaitChunks(f.Chunks); err != nil {
		return err
	}
	if err := cw.checkFile(f); err != nil {
		return cw.w.errorf("invalid file object: %w", err)
	}
	cw.enc.Reset()
	if err := cw.em.MarshalToBuffer(f, &cw.enc); err != nil {
		return cw.w.errorf("encode file object %d: %w", f.ID, err)
	}
	raw := cw.enc.Bytes()
	cw.out = append(cw.out[:0], zeroFrameHeader[:]...)
	var flags uint8
	if cw.zenc != nil && len(raw) >= minCompressBytes {
		cw.out = cw.zenc.EncodeAll(raw, cw.out)
		if len(cw.out)-frameHeaderSize < len(raw) {
			flags = flagZstd
		} else {
			cw.out = cw.out[:frameHeaderSize]
		}
	}
	if flags == 0 {
		cw.out = append(cw.out, raw...)
	}
	payload := cw.out[frameHeaderSize:]
	putFrameHeader(cw.out[:frameHeaderSize], frameFile, flags, payload)
	st.Frames++
	st.Files++
	st.Bytes += uint64(len(cw.out))
	st.RawBytes += uint64(len(raw))
	st.StoredBytes += uint64(len(payload))
	if _, err := cw.write(cw.out, st); err != nil {
		return err
	}
	cw.w.mu.Lock()
	cw.w.fileIDs[f.ID] = struct{}{}
	cw.w.mu.Unlock()
	return nil
}

// awaitChunks waits until every chunk of hs that another ContentWriter
// is writing (reserved, found a duplicate by this one) is in the trace:
// a file frame may name only chunks before it. It returns the Writer's
// error if that writer failed.
func (cw *ContentWriter) awaitChunks(hs []trace.Hash) error {
	w := cw.w
	for {
		w.mu.Lock()
		err := w.usable()
		pending := false
		for _, h := range hs {
			if done, ok := w.chunks[h]; ok && !done {
				pending = true
				break
			}
		}
		w.mu.Unlock()
		if err != nil || !pending {
			return err
		}
		// A chunk takes a few milliseconds to compress and write.
		time.Sleep(200 * time.Microsecond)
	}
}

// checkFile checks f as a reader will (contents.addFile), against the
// chunks this Writer wrote.
func (cw *ContentWriter) checkFile(f *trace.FileObject) error {
	c := &contents{byID: map[uint32]int{}, chunks: map[trace.Hash]chunkRef{}}
	cw.w.mu.Lock()
	c.blobs = map[trace.Hash][]byte{}
	for _, h := range f.Chunks {
		if cw.w.chunks[h] {
			c.chunks[h] = chunkRef{}
		} else if _, ok := cw.w.blobs[h]; ok {
			c.blobs[h] = []byte{}
		}
	}
	_, dup := cw.w.fileIDs[f.ID]
	cw.w.mu.Unlock()
	if dup {
		return fmt.Errorf("a second file object with ID %d (%q)", f.ID, f.Path)
	}
	return c.addFile(f)
}

// write hands complete frames to the Writer, and starts writing a large
// one to disk (outside the Writer's lock: it may wait for the device). It
// returns the offset in the trace at which b starts.
func (cw *ContentWriter) write(b []byte, st Stats) (int64, error) {
	w := cw.w
	w.mu.Lock()
	err := w.usable()
	off := w.off
	if err == nil {
		err = w.writeFrames(b, st)
	}
	w.mu.Unlock()
	if err == nil && w.f != nil && len(b) >= writebackFrom {
		startWriteback(w.f, off, int64(len(b)))
	}
	return off, err
}

// writebackFrom is the size of a content frame from which its writing to
// disk is started at once (startWriteback).
const writebackFrom = 256 << 10
