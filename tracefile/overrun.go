package tracefile

import (
	"encoding/binary"
)

// overrun tells a damaged length from a cut: the frame at off, whose
// header is hdr, declares more bytes than the file holds after it (rest).
// A recording cut short while writing a frame looks like that, but a
// complete trace with a damaged length does too. The length was damaged,
// not the file cut, when the frame's checksum matches the bytes there are
// (with that length), or when the file ends with a whole end frame (the
// writer writes it last, so the recording was not cut short). It returns
// an error of kind ErrCorrupt then, and nil when the input may really
// have been cut short.
func overrun(hdr, rest []byte, off int64) error {
	declared := binary.LittleEndian.Uint32(hdr[4:8])
	var h [frameHeaderSize]byte
	copy(h[:], hdr)
	binary.LittleEndian.PutUint32(h[4:8], uint32(len(rest)))
	if frameCRC(h[:], rest) == binary.LittleEndian.Uint32(hdr[8:12]) {
		return corruptFrame(off, nil, "its length field says %d bytes, but the %d bytes after its header are the whole frame (its checksum matches them): "+
			"the length is damaged", declared, len(rest))
	}
	if p := endFrameAtEnd(rest); p >= 0 {
		return corruptFrame(off, nil, "its length of %d bytes runs past the end of the file, over the end frame at offset %d: "+
			"the trace is complete and this length is damaged", declared, off+frameHeaderSize+int64(p))
	}
	return nil
}

// endFrameAtEnd returns where in b a whole end frame ends b exactly (its
// header valid, its length reaching the end of b, its checksum right),
// or -1.
func endFrameAtEnd(b []byte) int {
	for p := len(b) - frameHeaderSize; p >= 0; p-- {
		hdr := b[p : p+frameHeaderSize]
		if frameType(hdr[0]) != frameEnd || hdr[1]&^flagsKnown != 0 || hdr[2] != 0 || hdr[3] != 0 ||
			uint64(binary.LittleEndian.Uint32(hdr[4:8])) != uint64(len(b)-p-frameHeaderSize) {
			continue
		}
		if frameCRC(hdr, b[p+frameHeaderSize:]) == binary.LittleEndian.Uint32(hdr[8:12]) {
			return p
		}
	}
	return -1
}
