package tracefile

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"

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
	if !keep && f.Why == "" {
		return cw.w.errorf("file object %d (%s): content not kept, and no reason given", f.ID, f.Path)
	}
	if cw.buf == nil {
		cw.buf = make([]byte, MaxChunkSize)
	}
	f.Chunks, f.Size = f.Chunks[:0], 0
	var st Stats
	sum := sha256.New()
	for {
		n, err := io.ReadFull(src, cw.buf)
		if n > 0 {
			data := cw.buf[:n]
			sum.Write(data)
			f.Size += int64(n)
			st.ContentBytes += uint64(n)
			if keep {
				h, err := cw.writeChunk(data)
				if err != nil {
					return err
				}
				f.Chunks = append(f.Chunks, h)
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			f.Why, f.Chunks, f.SHA256 = trace.ContentUnreadable, nil, trace.Hash{}
			return cw.WriteFile(f, st)
		}
	}
	f.SHA256 = trace.Hash(sum.Sum(nil))
	if !keep {
		f.Chunks = nil
	}
	return cw.WriteFile(f, st)
}

// writeChunk writes the chunk frame of data unless the trace has it, and
// returns its address.
func (cw *ContentWriter) writeChunk(data []byte) (trace.Hash, error) {
	h := trace.Hash(sha256.Sum256(data))
	w := cw.w
	w.mu.Lock()
	_, dup := w.chunks[h]
	if !dup {
		w.chunks[h] = struct{}{} // reserved: one ContentWriter writes it
	}
	w.mu.Unlock()
	if dup {
		w.mu.Lock()
		w.stats.ChunksDeduplicated++
		w.mu.Unlock()
		return h, nil
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
	err := cw.write(cw.out, st)
	cw.out = shrink(cw.out)
	return h, err
}

// WriteFile writes f's file frame as it is; its chunks must be in the
// trace already. st counts what storing f took besides the frame.
func (cw *ContentWriter) WriteFile(f *trace.FileObject, st Stats) error {
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
	if err := cw.write(cw.out, st); err != nil {
		return err
	}
	cw.w.mu.Lock()
	cw.w.fileIDs[f.ID] = struct{}{}
	cw.w.mu.Unlock()
	return nil
}

// checkFile checks f as a reader will (contents.addFile), against the
// chunks this Writer wrote.
func (cw *ContentWriter) checkFile(f *trace.FileObject) error {
	c := &contents{byID: map[uint32]int{}, chunks: map[trace.Hash]chunkRef{}}
	cw.w.mu.Lock()
	for _, h := range f.Chunks {
		if _, ok := cw.w.chunks[h]; ok {
			c.chunks[h] = chunkRef{}
		}
	}
	_, dup := cw.w.fileIDs[f.ID]
	cw.w.mu.Unlock()
	if dup {
		return fmt.Errorf("a second file object with ID %d (%q)", f.ID, f.Path)
	}
	return c.addFile(f)
}

// write hands complete frames to the Writer.
func (cw *ContentWriter) write(b []byte, st Stats) error {
	w := cw.w
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	return w.writeFrames(b, st)
}
