package tracefile

import (
	"encoding/binary"
	"fmt"
	"io"
	"slices"

	"github.com/envbisect/envbisect/trace"
)

// CacheEntry is what storing one file put in a trace: its size and hash,
// and, for a file whose content was kept, its chunks' addresses, raw
// lengths and frames (as StoreFileEntry wrote them). The frames are held
// in memory (an entry Get read, or one of a trace written to an
// io.Writer), or named by where they are in the trace file src.
type CacheEntry struct {
	Size   int64
	SHA256 trace.Hash
	Chunks []trace.Hash
	raw    []uint32 // each chunk's raw length
	frames [][]byte // each chunk's frame, header included; nil with src
	// src, when set, is the trace file that holds the frames, at refs.
	src  io.ReaderAt
	refs []frameRef
}

// frameRef is where a frame is in a trace file: its offset and length,
// header included.
type frameRef struct {
	off int64
	n   int
}

// add appends chunk h of raw length n, whose frame went where wc says,
// and returns e, or nil when the entry cannot be cached: a chunk the
// trace had before this file (its frame is another file's, or another
// ContentWriter's).
func (e *CacheEntry) add(h trace.Hash, n uint32, wc writtenChunk) *CacheEntry {
	j := -1
	if !wc.wrote {
		// A chunk the trace had: its frame is this file's own, or
		// there is none to cache.
		if j = slices.Index(e.Chunks, h); j < 0 {
			return nil
		}
	}
	e.Chunks, e.raw = append(e.Chunks, h), append(e.raw, n)
	switch {
	case e.src != nil && j >= 0:
		e.refs = append(e.refs, e.refs[j])
	case e.src != nil:
		e.refs = append(e.refs, wc.ref)
	case j >= 0:
		e.frames = append(e.frames, e.frames[j])
	default:
		e.frames = append(e.frames, wc.frame)
	}
	return e
}

// complete reports whether e has a frame for each chunk.
func (e *CacheEntry) complete() bool {
	if e.src != nil {
		return len(e.refs) == len(e.Chunks) && len(e.raw) == len(e.Chunks)
	}
	return len(e.frames) == len(e.Chunks) && len(e.raw) == len(e.Chunks)
}

// frame returns chunk i's frame: the one e holds, or the one read from
// its trace into buf (grown as needed), checked to be a chunk frame of
// the length e names.
func (e *CacheEntry) frame(i int, buf []byte) ([]byte, error) {
	if e.src == nil {
		return e.frames[i], nil
	}
	ref := e.refs[i]
	if ref.n < frameHeaderSize || ref.n > frameHeaderSize+MaxStoredPayload {
		return nil, fmt.Errorf("chunk %d: a frame of %d bytes", i, ref.n)
	}
	buf = slices.Grow(buf[:0], ref.n)[:ref.n]
	if _, err := e.src.ReadAt(buf, ref.off); err != nil {
		return nil, fmt.Errorf("chunk %d: read its frame back from the trace: %w", i, err)
	}
	if frameType(buf[0]) != frameChunk || frameHeaderSize+int(binary.LittleEndian.Uint32(buf[4:8])) != ref.n {
		return nil, fmt.Errorf("chunk %d: the trace holds no chunk frame of %d bytes at offset %d", i, ref.n, ref.off)
	}
	return buf, nil
}
