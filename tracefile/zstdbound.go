package tracefile

import (
	"fmt"
	"math/bits"

	"github.com/klauspost/compress/zstd"
)

// A zstd payload cannot decode to more than zstdBound of its stored
// size: every block takes at least zstdMinBlock stored bytes (a 3-byte
// block header and one byte of content, an RLE block) and yields at most
// zstdMaxBlock bytes (the format's Block_Maximum_Size). A frame whose
// header declares a larger content size declares what the file cannot
// hold; the decoder would allocate that size before finding out, so
// checkZstdHeader refuses it first. Any further frames of the payload
// (the writer makes one) are bounded by the decoder's limit, which is
// this bound rounded up to a power of two, at least minDecoderLimit,
// instead of the format's MaxDecodedPayload.
const (
	zstdMinBlock = 4
	zstdMaxBlock = 128 << 10
	// minDecoderLimit is the writer's zstd window (8 MiB, the
	// encoder's default): the decoder's limit is also its largest
	// window, so a smaller one would refuse a tiny valid payload.
	minDecoderLimit = 8 << 20
)

// zstdBound is the most that stored bytes of zstd can decode to.
func zstdBound(stored int) uint64 {
	return (uint64(stored)/zstdMinBlock + 1) * zstdMaxBlock
}

// decoderLimit is the limit of the decoder for a payload of stored
// bytes: its zstdBound rounded up to a power of two, between
// minDecoderLimit and maxDecoded.
func decoderLimit(stored int, maxDecoded uint64) uint64 {
	b := zstdBound(stored)
	if b >= maxDecoded {
		return maxDecoded
	}
	l := uint64(1) << (64 - bits.LeadingZeros64(b-1))
	return min(max(l, minDecoderLimit), maxDecoded)
}

// decoderFor returns the Reader's zstd decoder for a payload of stored
// bytes, made at its first use: one decoder per limit, at most six
// (8 MiB to 256 MiB).
func (r *Reader) decoderFor(stored int) (*zstd.Decoder, uint64, error) {
	limit := decoderLimit(stored, uint64(r.lim.maxDecoded))
	if d := r.zdecs[limit]; d != nil {
		return d, limit, nil
	}
	d, err := newZstdDecoder(limit)
	if err != nil {
		return nil, 0, err
	}
	if r.zdecs == nil {
		r.zdecs = make(map[uint64]*zstd.Decoder)
	}
	r.zdecs[limit] = d
	return d, limit, nil
}

// checkZstdHeader refuses a payload whose first zstd frame declares a
// content size over zstdBound of the payload's stored size.
func checkZstdHeader(stored []byte) error {
	var h zstd.Header
	if err := h.Decode(stored); err != nil {
		return fmt.Errorf("zstd frame header: %w", err)
	}
	if h.HasFCS && h.FrameContentSize > zstdBound(len(stored)) {
		return fmt.Errorf("compressed payload of %d bytes declares %d decoded bytes, more than it can hold (at most %d)",
			len(stored), h.FrameContentSize, zstdBound(len(stored)))
	}
	return nil
}
