package tracefile

import (
	"crypto/sha256"
	"errors"
	"slices"

	"github.com/envbisect/envbisect/trace"
)

// hashSize is the size of a blob address.
const hashSize = sha256.Size

// emptyHash is the address of zero bytes.
var emptyHash = trace.Hash(sha256.Sum256(nil))

// checkBlobRefs refuses a buffer that names a blob but carries no data:
// the writer stores blobs from the data it is given, never from a bare
// address, so that it cannot write a reference to a blob the file lacks.
func checkBlobRefs(ev *trace.Event) error {
	if ev.Call == nil {
		return nil
	}
	for i := range ev.Call.Mem {
		m := &ev.Call.Mem[i]
		if m.Blob != nil && len(m.Data) == 0 && *m.Blob != emptyHash {
			return errors.New("a buffer has a blob address but no data: pass its data, the writer stores the blob")
		}
	}
	return nil
}

// needsCopy tells whether a call's encoded form differs from the call:
// some buffer moves out of line, or carries a blob address to drop.
func (w *Writer) needsCopy(c *trace.Call) bool {
	for i := range c.Mem {
		if len(c.Mem[i].Data) >= w.threshold || c.Mem[i].Blob != nil {
			return true
		}
	}
	return false
}

// outOfLine fills w.evs with the events as they are encoded: calls with
// large buffers are copied into scratch space with each such buffer
// replaced by its address, and a blob frame is appended to w.out for
// every address not yet in the file. The caller's events are untouched.
func (w *Writer) outOfLine(evs []trace.Event) {
	// Size the scratch space first: pointers into it must stay valid.
	ncalls, nmems := 0, 0
	for i := range evs {
		if c := evs[i].Call; c != nil && w.needsCopy(c) {
			ncalls++
			nmems += len(c.Mem)
		}
	}
	w.evs = slices.Grow(w.evs[:0], len(evs))
	w.calls = slices.Grow(w.calls[:0], ncalls)
	w.mems = slices.Grow(w.mems[:0], nmems)
	w.hashes = slices.Grow(w.hashes[:0], nmems)

	for i := range evs {
		c := evs[i].Call
		if c == nil || !w.needsCopy(c) {
			w.evs = append(w.evs, evs[i])
			continue
		}
		first := len(w.mems)
		w.mems = append(w.mems, c.Mem...)
		mems := w.mems[first:len(w.mems):len(w.mems)]
		for k := range mems {
			m := &mems[k]
			m.Blob = nil
			if len(m.Data) < w.threshold {
				continue
			}
			data := m.Data
			if len(data) > MaxBlobSize {
				data = data[:MaxBlobSize]
				m.Flag |= trace.Truncated
			}
			w.hashes = append(w.hashes, sha256.Sum256(data))
			h := &w.hashes[len(w.hashes)-1]
			m.Blob, m.Data = h, nil
			if _, ok := w.blobs[*h]; ok || w.chunks[*h] {
				// In the file already, as a blob or as a file's chunk.
				w.pending.BlobsDeduplicated++
				continue
			}
			w.blobs[*h] = struct{}{}
			w.newBlobs = append(w.newBlobs, *h)
			w.appendBlob(h, data)
		}
		w.calls = append(w.calls, *c)
		w.calls[len(w.calls)-1].Mem = mems
		w.evs = append(w.evs, trace.Event{Call: &w.calls[len(w.calls)-1]})
	}
}

// appendBlob appends the blob frame of data, whose address is h.
func (w *Writer) appendBlob(h *trace.Hash, data []byte) {
	w.blobBuf = append(append(w.blobBuf[:0], h[:]...), data...)
	// A blob of at most MaxBlobSize always fits a frame.
	_ = w.appendFrame(frameBlob, w.blobBuf)
	w.blobBuf = shrink(w.blobBuf)
	w.pending.Blobs++
}
