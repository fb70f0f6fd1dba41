package tracefile

import (
	"fmt"

	"github.com/fxamacker/cbor/v2"
	"github.com/klauspost/compress/zstd"
)

// newEncMode builds the CBOR encoding of the format: strings as byte
// strings (Linux paths and argv need not be UTF-8), times as RFC 3339
// strings with nanoseconds (byte strings too, untagged), definite lengths,
// map keys in ascending order (a struct's fields are laid out for size,
// not in their keys' order: trace.Call, trace.Mem).
func newEncMode() (cbor.UserBufferEncMode, error) {
	return cbor.EncOptions{
		Sort:        cbor.SortCanonical,
		String:      cbor.StringToByteString,
		Time:        cbor.TimeRFC3339Nano,
		TimeTag:     cbor.EncTagNone,
		IndefLength: cbor.IndefLengthForbidden,
	}.UserBufferEncMode()
}

// newDecMode builds the decoder of the format, with every limit set.
// Unknown map keys are ignored (forward-compatible additions); duplicate
// keys and indefinite lengths are refused.
func newDecMode() (cbor.DecMode, error) {
	return cbor.DecOptions{
		DupMapKey:          cbor.DupMapKeyEnforcedAPF,
		MaxNestedLevels:    maxNestedLevels,
		MaxArrayElements:   maxArrayElements,
		MaxMapPairs:        maxMapPairs,
		IndefLength:        cbor.IndefLengthForbidden,
		UTF8:               cbor.UTF8DecodeInvalid,
		ByteStringToString: cbor.ByteStringToStringAllowed,
		ByteStringToTime:   cbor.ByteStringToTimeAllowed,
	}.DecMode()
}

// Compression selects how a Writer compresses frame payloads.
type Compression uint8

const (
	// ZstdFastest: zstd at its fastest level (the default). On the
	// recording path speed matters more than the last few percent of size.
	ZstdFastest Compression = iota
	// ZstdDefault: zstd at its default level, smaller and slower.
	ZstdDefault
	// Uncompressed: payloads are stored as they are.
	Uncompressed
)

func (c Compression) String() string {
	switch c {
	case ZstdFastest:
		return "zstd-fastest"
	case ZstdDefault:
		return "zstd-default"
	case Uncompressed:
		return "none"
	}
	return fmt.Sprintf("Compression(%d)", uint8(c))
}

// newZstdEncoder returns an encoder for EncodeAll at the level c asks for,
// or nil for Uncompressed. It runs on the caller's goroutine only.
func newZstdEncoder(c Compression) (*zstd.Encoder, error) {
	var level zstd.EncoderLevel
	switch c {
	case ZstdFastest:
		level = zstd.SpeedFastest
	case ZstdDefault:
		level = zstd.SpeedDefault
	case Uncompressed:
		return nil, nil
	default:
		return nil, fmt.Errorf("unknown compression %d", c)
	}
	return zstd.NewWriter(nil,
		zstd.WithEncoderLevel(level),
		zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderCRC(false), // the frame's CRC-32C covers the stored bytes
		zstd.WithZeroFrames(true),
	)
}

// newZstdDecoder returns a decoder for DecodeAll that refuses to produce
// more than maxDecoded bytes.
func newZstdDecoder(maxDecoded uint64) (*zstd.Decoder, error) {
	return zstd.NewReader(nil,
		zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderMaxMemory(maxDecoded),
		zstd.WithDecoderMaxWindow(maxDecoded),
	)
}
