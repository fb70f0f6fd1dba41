package tracefile

import (
	"bytes"
	"encoding/binary"
	"io"

	"github.com/envbisect/envbisect/trace"
)

// takeChunk remembers where the chunk frame at off is, by its address. The
// frame's checksum was checked; its bytes are decoded and hashed only when
// a file's content is read (OpenContent, VerifyContent), so reading a
// trace costs no decompression of the files it holds. Of a compressed
// chunk only the start is decompressed, up to its address (the Go writer
// puts the address in a zstd frame of its own, so this decodes 32 bytes).
func (r *Reader) takeChunk(stored []byte, off int64) error {
	flags := r.fh[1]
	var h trace.Hash
	if flags&flagZstd == 0 {
		if len(stored) < hashSize {
			return corruptFrame(off, nil, "chunk payload of %d bytes is shorter than its %d-byte address", len(stored), hashSize)
		}
		copy(h[:], stored)
	} else {
		if r.zpeek == nil {
			var err error
			if r.zpeek, err = newZstdDecoder(hashSize + MaxChunkSize); err != nil {
				return err
			}
		}
		if err := r.zpeek.Reset(bytes.NewReader(stored)); err != nil {
			return corruptFrame(off, err, "chunk: zstd")
		}
		if _, err := io.ReadFull(r.zpeek, h[:]); err != nil {
			return corruptPayload(off, err, "chunk: its address does not decompress")
		}
	}
	if _, ok := r.content.chunks[h]; ok {
		return nil // a repeated chunk: the first one serves
	}
	ref := chunkRef{off: r.base + off, length: uint32(len(stored)), crc: binary.LittleEndian.Uint32(r.fh[8:12]), flags: flags}
	if r.content.open == nil {
		ref.stored = bytes.Clone(stored)
	}
	r.content.chunks[h] = ref
	return nil
}
