package tracefile

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/envbisect/envbisect/trace"
)

// step reads one frame after the header and takes it in: events become
// pending, start events, blobs and the end are kept.
func (r *Reader) step() error {
	t, p, off, err := r.readFrame()
	if err == io.EOF {
		return r.truncated(off, 0)
	}
	if err != nil {
		return err
	}
	switch t {
	case frameHeader:
		return corruptFrame(off, nil, "a second header frame")
	case frameStart:
		switch {
		case r.startSeen:
			return corruptFrame(off, nil, "a second start frame")
		case r.eventsSeen:
			return corruptFrame(off, nil, "a start frame after events")
		}
		var start []trace.StartEvent
		if err := r.dm.Unmarshal(p, &start); err != nil {
			return corruptPayload(off, err, "start events")
		}
		r.start, r.startSeen = start, true
	case frameBlob:
		if len(p) < hashSize {
			return corruptFrame(off, nil, "blob payload of %d bytes is shorter than its %d-byte address", len(p), hashSize)
		}
		h := trace.Hash(p[:hashSize])
		data := p[hashSize:]
		if sha256.Sum256(data) != h {
			return corruptFrame(off, nil, "blob content does not match its address %x", h[:])
		}
		switch {
		case r.content.hasBlob(h):
		case r.keepData != nil && r.content.open != nil:
			// Its bytes stay in the file until a buffer is kept
			// (contents.blobData).
			if r.content.blobRefs == nil {
				r.content.blobRefs = make(map[trace.Hash]chunkRef)
			}
			r.content.blobRefs[h] = chunkRef{off: r.base + off, length: binary.LittleEndian.Uint32(r.fh[4:8]),
				crc: binary.LittleEndian.Uint32(r.fh[8:12]), flags: r.fh[1], blob: true, size: len(data)}
		default:
			r.blobs[h] = bytes.Clone(data)
		}
	case frameChunk:
		return r.takeChunk(p, off)
	case frameFile:
		var f trace.FileObject
		if err := r.dm.Unmarshal(p, &f); err != nil {
			return corruptPayload(off, err, "file object")
		}
		if err := r.content.addFile(&f); err != nil {
			return corruptFrame(off, nil, "%s", err)
		}
	case frameEvents:
		var evs []trace.Event
		if err := r.dm.Unmarshal(p, &evs); err != nil {
			return corruptPayload(off, err, "events")
		}
		for i := range evs {
			if err := r.fill(&evs[i]); err != nil {
				return corruptFrame(off, nil, "%s", err)
			}
		}
		r.pending, r.next, r.eventsSeen = evs, 0, true
		if r.onEvents != nil {
			r.onEvents(off, r.off-off, evs)
		}
	case frameEnd:
		var end trace.End
		if err := r.dm.Unmarshal(p, &end); err != nil {
			return corruptPayload(off, err, "end")
		}
		if _, err := r.r.ReadByte(); err != io.EOF {
			if err != nil {
				return err
			}
			return corruptFrame(r.off, nil, "data after the end frame")
		}
		r.end = &end
	}
	return nil
}

// fill puts the bytes of out-of-line buffers back into ev and checks it.
func (r *Reader) fill(ev *trace.Event) error {
	if c := ev.Call; c != nil {
		// Calls on one file all carry its path: one copy of it is held
		// instead of one per call (about 48 bytes a call of a trace's
		// memory, where the same few paths recur).
		c.Path, c.Path2 = r.intern(c.Path), r.intern(c.Path2)
		for i := range c.Mem {
			m := &c.Mem[i]
			if m.Blob == nil {
				continue
			}
			if len(m.Data) > 0 {
				return fmt.Errorf("event at seq %d, buffer %d has both inline data and a blob", c.Seq, i)
			}
			if r.keepData != nil && !r.keepData(c, m) {
				if err := r.leaveOut(c, i); err != nil {
					return err
				}
				continue
			}
			data, ok, err := r.content.blobData(*m.Blob)
			if err != nil {
				return fmt.Errorf("event at seq %d, buffer %d: %w", c.Seq, i, err)
			}
			if !ok {
				// The same bytes stored as a file's chunk.
				data, ok, err = r.content.chunkAsBlob(*m.Blob, r.decoder)
				if err != nil {
					return fmt.Errorf("event at seq %d, buffer %d: %w", c.Seq, i, err)
				}
				if ok {
					r.blobs[*m.Blob] = data
				}
			}
			if !ok {
				return fmt.Errorf("event at seq %d references blob %x that the trace does not contain", c.Seq, m.Blob[:])
			}
			m.Data = data
		}
	}
	seq, err := checkEvent(ev, r.lastSeq)
	if err != nil {
		return err
	}
	if err := r.procs.check(ev); err != nil {
		return err
	}
	r.lastSeq = seq
	return nil
}

// leaveOut checks buffer i of c, whose bytes ReadOptions.KeepData does
// not want, as checkMem would with its data: its blob is in the trace,
// and its size fits the buffer.
func (r *Reader) leaveOut(c *trace.Call, i int) error {
	m := &c.Mem[i]
	h := *m.Blob
	size := -1
	r.content.blobMu.Lock()
	if data, ok := r.blobs[h]; ok {
		size = len(data)
	} else if ref, ok := r.content.blobRefs[h]; ok {
		size = ref.size
	}
	r.content.blobMu.Unlock()
	if ref, ok := r.content.chunks[h]; size < 0 && ok {
		// A file's chunk: a compressed one's size is known only decoded,
		// and OpenContent checks it.
		size = 0
		if ref.flags&flagZstd == 0 {
			size = int(ref.length) - hashSize
		}
	}
	switch {
	case size < 0:
		return fmt.Errorf("event at seq %d references blob %x that the trace does not contain", c.Seq, h[:])
	case uint64(size) > m.Len:
		return fmt.Errorf("event at seq %d, buffer %d: %d bytes of data are more than its length %d", c.Seq, i, size, m.Len)
	case m.Flag&(trace.Excluded|trace.Fault) != 0:
		return fmt.Errorf("event at seq %d, buffer %d: flagged excluded or fault, but holds data", c.Seq, i)
	}
	return nil
}

// maxInterned bounds the paths a Reader holds one copy of: a trace of
// mostly distinct paths (a find over a large tree) would pay the map and
// gain nothing.
const maxInterned = 1 << 16

// intern returns the copy of path the Reader holds, the first it saw.
func (r *Reader) intern(path string) string {
	if path == "" {
		return ""
	}
	if p, ok := r.paths[path]; ok {
		return p
	}
	if len(r.paths) >= maxInterned {
		return path
	}
	if r.paths == nil {
		r.paths = make(map[string]string)
	}
	r.paths[path] = path
	return path
}
