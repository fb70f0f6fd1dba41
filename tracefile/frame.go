package tracefile

import (
	"encoding/binary"
	"hash/crc32"
)

// frameType is the first byte of a frame header.
type frameType uint8

const (
	frameHeader frameType = 1 // CBOR trace.Header
	frameStart  frameType = 2 // CBOR []trace.StartEvent
	frameEvents frameType = 3 // CBOR []trace.Event
	frameBlob   frameType = 4 // 32-byte SHA-256, then the bytes
	frameEnd    frameType = 5 // CBOR trace.End
	// Version 2.
	frameChunk frameType = 6 // 32-byte SHA-256, then up to MaxChunkSize bytes of a file
	frameFile  frameType = 7 // CBOR trace.FileObject
)

func (t frameType) String() string {
	switch t {
	case frameHeader:
		return "header"
	case frameStart:
		return "start"
	case frameEvents:
		return "events"
	case frameBlob:
		return "blob"
	case frameEnd:
		return "end"
	case frameChunk:
		return "chunk"
	case frameFile:
		return "file"
	}
	return "invalid"
}

// valid reports whether t is a frame type of format version v.
func (t frameType) valid(v uint16) bool {
	if v < 2 {
		return t >= frameHeader && t <= frameEnd
	}
	return t >= frameHeader && t <= frameFile
}

// Frame flag bits.
const (
	flagZstd   = 1 << 0 // the stored payload is zstd-compressed
	flagsKnown = flagZstd
)

// frameHeaderSize is the size of a frame header: type, flags, 2 reserved
// bytes, length, checksum.
const frameHeaderSize = 12

// Hard limits of the format. A reader refuses a frame beyond them; a writer
// never produces one.
const (
	// MaxStoredPayload is the largest stored (possibly compressed) payload
	// of one frame.
	MaxStoredPayload = 64 << 20
	// MaxDecodedPayload is the largest decoded payload of one frame.
	MaxDecodedPayload = 256 << 20
	// MaxBlobSize is the largest blob: any blob fits a frame uncompressed.
	// The writer stores only this many bytes of a longer buffer and flags
	// it truncated.
	MaxBlobSize = MaxStoredPayload - hashSize
	// MaxChunkSize is the largest piece of a file's content one chunk
	// frame holds (version 2).
	MaxChunkSize = 4 << 20
)

// Limits on CBOR items, applied by the reader's decoder.
const (
	maxArrayElements = 1 << 20
	maxMapPairs      = 256
	maxNestedLevels  = 16
)

// Soft limits the writer keeps to, well inside the hard ones.
const (
	maxFrameEvents   = 1 << 16  // events per events frame
	maxFrameEncoded  = 16 << 20 // encoded bytes per events frame
	minCompressBytes = 128      // smaller payloads are stored as they are
)

// castagnoli is the CRC-32C table; it is never modified.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// frameCRC computes a frame's checksum: CRC-32C over the first 8 bytes of
// its header (type, flags, reserved, length) followed by the stored
// payload.
func frameCRC(hdr []byte, payload []byte) uint32 {
	c := crc32.Update(0, castagnoli, hdr[:8])
	return crc32.Update(c, castagnoli, payload)
}

// putFrameHeader fills hdr (frameHeaderSize bytes) for a frame whose
// stored payload is payload.
func putFrameHeader(hdr []byte, t frameType, flags uint8, payload []byte) {
	hdr[0] = byte(t)
	hdr[1] = flags
	hdr[2], hdr[3] = 0, 0
	binary.LittleEndian.PutUint32(hdr[4:8], uint32(len(payload)))
	binary.LittleEndian.PutUint32(hdr[8:12], frameCRC(hdr, payload))
}
