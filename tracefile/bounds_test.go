package tracefile

import (
	"encoding/binary"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// allocated runs f and returns how many bytes it allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// crafted is a trace of the current version: preamble, a valid header
// frame, then one frame of type t with the given flags and payload, its
// checksum valid.
func crafted(t *testing.T, ft frameType, flags byte, payload []byte) []byte {
	t.Helper()
	em, err := newEncMode()
	if err != nil {
		t.Fatal(err)
	}
	hdr, err := em.Marshal(sampleHeader())
	if err != nil {
		t.Fatal(err)
	}
	b := appendRawFrame(appendPreamble(nil), byte(frameHeader), 0, hdr)
	return appendRawFrame(b, byte(ft), flags, payload)
}

// zstdDeclaring is a 17-byte zstd frame whose header declares fcs
// decoded bytes and whose one block (RLE, last) yields 128 KiB of zeros.
func zstdDeclaring(fcs uint64) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 0xFD2FB528)
	b = append(b, 0xE0) // FCS field of 8 bytes, single segment
	b = binary.LittleEndian.AppendUint64(b, fcs)
	hdr := uint32(1) | 1<<1 | uint32(zstdMaxBlock)<<3 // last, RLE, 128 KiB
	b = append(b, byte(hdr), byte(hdr>>8), byte(hdr>>16))
	return append(b, 0)
}

// A trace whose fields declare sizes the file cannot hold is refused
// with a clean error, allocating little: the sizes are checked against
// what the bytes can hold before anything of that size is made.
func TestDeclaredSizesOverTheFile(t *testing.T) {
	cbor1M := []byte{0x9a, 0x00, 0x10, 0x00, 0x00} // array of 1,048,576 items
	cases := []struct {
		name string
		data []byte
		kind error
		msg  string
	}{
		{
			name: "compressed events frame declaring 200 MiB in 17 bytes",
			data: crafted(t, frameEvents, flagZstd, zstdDeclaring(200<<20)),
			kind: ErrCorrupt,
			msg:  "declares 209715200 decoded bytes, more than it can hold",
		},
		{
			name: "compressed start frame declaring 255 MiB",
			data: crafted(t, frameStart, flagZstd, zstdDeclaring(255<<20)),
			kind: ErrCorrupt,
			msg:  "more than it can hold",
		},
		{
			name: "events array of a million items in 6 bytes",
			data: crafted(t, frameEvents, 0, append(cbor1M, 0xa0)),
			kind: ErrCorrupt,
			msg:  "events",
		},
		{
			name: "start array of a million items in 6 bytes",
			data: crafted(t, frameStart, 0, append(cbor1M, 0xa0)),
			kind: ErrCorrupt,
			msg:  "start events",
		},
		{
			name: "a byte string of 4 GiB in a file object",
			data: crafted(t, frameFile, 0, []byte{0xa1, 0x01, 0x5b, 0, 0, 0, 1, 0, 0, 0, 0}),
			kind: ErrCorrupt,
			msg:  "file object",
		},
		{
			name: "frame length of 64 MiB in a 49-byte file",
			data: func() []byte {
				// Cut while being written: the checksum is that of
				// the 64 MiB the frame was to hold, not of the byte
				// there is (a checksum matching it says the length
				// is damaged: TestCompleteButInconsistent).
				b := crafted(t, frameEvents, 0, []byte{0x80})
				binary.LittleEndian.PutUint32(b[len(b)-frameHeaderSize-1+4:], MaxStoredPayload)
				b[len(b)-frameHeaderSize-1+8] ^= 0xff
				return b
			}(),
			kind: ErrTruncated,
			msg:  "cut short",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			n := allocated(func() { _, err = readBytes(c.data, defaultLimits) })
			if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("error %v, want %v with %q", err, c.kind, c.msg)
			}
			// The reader's own buffers (64 KiB bufio, the first 1 MiB
			// step of a long frame) and a decoder, not the declared size.
			if n > 4<<20 {
				t.Errorf("reading %d bytes allocated %d MiB", len(c.data), n>>20)
			}
		})
	}
}

// A payload that really decodes to far more than it is stored in (a run
// of zeros) is read: the bound is what the bytes can hold, not a ratio
// a writer keeps to.
func TestCompressibleWithinBound(t *testing.T) {
	data := writeOneBuffer(t, make([]byte, 3<<20))
	tr, err := readBytes(data, defaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(tr.Events[0].Call.Mem[0].Data); got != 3<<20 {
		t.Fatalf("buffer of %d bytes, want %d", got, 3<<20)
	}
	if len(data) > 64<<10 {
		t.Fatalf("trace of %d bytes: the zeros did not compress, the test tests nothing", len(data))
	}
}

func TestDecoderLimit(t *testing.T) {
	for _, c := range []struct {
		stored int
		want   uint64
	}{
		{17, minDecoderLimit},
		{1000, 32 << 20},
		{2047, 64 << 20},
		{4096, MaxDecodedPayload},
		{MaxStoredPayload, MaxDecodedPayload},
	} {
		if got := decoderLimit(c.stored, MaxDecodedPayload); got != c.want {
			t.Errorf("decoderLimit(%d) = %d, want %d", c.stored, got, c.want)
		}
	}
}
