package tracefile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/klauspost/compress/zstd"
)

// readChunk bounds each step of reading a payload, so that a length
// field pointing past the end of a short input allocates little.
const readChunk = 1 << 20

// readFrame reads the next frame and returns its type and decoded
// payload, valid until the next call; for a chunk frame, its stored
// payload (r.fh has its flags). It returns io.EOF, and the offset,
// when the input ends exactly at a frame boundary.
func (r *Reader) readFrame() (t frameType, payload []byte, off int64, err error) {
	off = r.off
	n, err := io.ReadFull(r.r, r.fh[:])
	switch {
	case err == io.EOF:
		return 0, nil, off, io.EOF
	case err == io.ErrUnexpectedEOF:
		return 0, nil, off, r.truncated(off, n)
	case err != nil:
		return 0, nil, off, fmt.Errorf("read at offset %d: %w", off+int64(n), err)
	}
	length := binary.LittleEndian.Uint32(r.fh[4:8])
	if uint64(length) > uint64(r.lim.maxStored) {
		return 0, nil, off, corruptFrame(off, nil, "stored payload of %d bytes is over the limit of %d", length, r.lim.maxStored)
	}
	buf := r.stored[:0]
	for len(buf) < int(length) {
		chunk := min(int(length)-len(buf), readChunk)
		buf = slices.Grow(buf, chunk)
		m, err := io.ReadFull(r.r, buf[len(buf):len(buf)+chunk])
		buf = buf[:len(buf)+m]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			r.stored = buf
			if err := overrun(r.fh[:], buf, off); err != nil {
				return 0, nil, off, err
			}
			return 0, nil, off, r.truncated(off, frameHeaderSize+len(buf))
		}
		if err != nil {
			return 0, nil, off, fmt.Errorf("read at offset %d: %w", off+frameHeaderSize+int64(len(buf)), err)
		}
	}
	r.stored = buf
	if frameCRC(r.fh[:], buf) != binary.LittleEndian.Uint32(r.fh[8:12]) {
		return 0, nil, off, corruptFrame(off, nil, "checksum mismatch")
	}
	r.off = off + frameHeaderSize + int64(length)
	t, flags := frameType(r.fh[0]), r.fh[1]
	switch {
	case !t.valid(r.version):
		return 0, nil, off, corruptFrame(off, nil, "frame type %d is invalid", r.fh[0])
	case flags&^flagsKnown != 0:
		return 0, nil, off, corruptFrame(off, nil, "unknown flags %#02x", flags)
	case r.fh[2] != 0 || r.fh[3] != 0:
		return 0, nil, off, corruptFrame(off, nil, "reserved bytes are not zero")
	}
	if flags&flagZstd == 0 || t == frameChunk {
		// A chunk's bytes are decoded only when its content is read
		// (OpenContent); step reads its address.
		return t, buf, off, nil
	}
	// A frame declaring more than this many stored bytes can decode to
	// is refused before anything of that size is allocated, and the
	// decoder's limit follows the stored size (zstdbound.go).
	if err := checkZstdHeader(buf); err != nil {
		return 0, nil, off, corruptFrame(off, nil, "%s", err)
	}
	zdec, limit, err := r.decoderFor(len(buf))
	if err != nil {
		return 0, nil, off, err
	}
	d, err := zdec.DecodeAll(buf, r.decoded[:0])
	if errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded) || uint64(len(d)) > limit {
		if limit < uint64(r.lim.maxDecoded) {
			return 0, nil, off, corruptFrame(off, nil, "compressed payload of %d bytes decodes to more than it can hold (at most %d bytes)", len(buf), zstdBound(len(buf)))
		}
		return 0, nil, off, corruptFrame(off, nil, "decoded payload is over the limit of %d bytes", r.lim.maxDecoded)
	}
	if err != nil {
		return 0, nil, off, corruptPayload(off, err, "zstd")
	}
	r.decoded = d
	return t, d, off, nil
}
