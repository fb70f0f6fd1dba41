package tracefile

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// Cutting a trace at any byte gives the events of its complete frames and
// ErrTruncated, or ErrNotTrace for nothing at all; never a panic.
func TestTruncatedAtEveryOffset(t *testing.T) {
	data, _ := writeSample(t, Options{}, true)
	full, err := readBytes(data, defaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	stripBlobs(full.Events)
	// writeSample writes two events frames, of 5 events and of the rest:
	// the events readable at a cut are those of the frames that end before
	// it.
	readable := func(cut int) int {
		frames := 0
		for _, off := range frameOffsets(data) {
			end := off + frameHeaderSize + int(binary.LittleEndian.Uint32(data[off+4:]))
			if data[off] == byte(frameEvents) && end <= cut {
				frames++
			}
		}
		return []int{0, 5, len(full.Events)}[frames]
	}
	for cut := 0; cut < len(data); cut++ {
		tr, err := readBytes(data[:cut], defaultLimits)
		switch {
		case cut == 0:
			if !errors.Is(err, ErrNotTrace) {
				t.Fatalf("empty: %v, want ErrNotTrace", err)
			}
			continue
		case !errors.Is(err, ErrTruncated):
			t.Fatalf("cut at %d: %v, want ErrTruncated", cut, err)
		}
		headerEnd := frameOffsets(data)[1]
		if cut < headerEnd {
			if tr != nil {
				t.Fatalf("cut at %d, inside the header: got a trace", cut)
			}
			continue
		}
		if tr == nil {
			t.Fatalf("cut at %d: no trace", cut)
		}
		want := readable(cut)
		if len(tr.Events) != want {
			t.Fatalf("cut at %d: %d events, want %d", cut, len(tr.Events), want)
		}
		if want > 0 {
			stripBlobs(tr.Events)
			requireEqual(t, "events", tr.Events, full.Events[:want])
		}
		if msg := err.Error(); !strings.Contains(msg, "the recording was cut short") || !strings.Contains(msg, "events are readable") {
			t.Fatalf("cut at %d: message %q", cut, msg)
		}
	}
}

// Flipping any bit of a trace is detected: a damaged magic is a foreign
// file, a damaged version a newer or invalid one, and anything else is
// corrupt. A length pointing past the end is corrupt too, not a cut: the
// trace still ends with its end frame (or, for the end frame's own
// length, its checksum matches the bytes there are).
func TestBitFlips(t *testing.T) {
	data, _ := writeSample(t, Options{}, true)
	bits := []int{0, 1, 2, 3, 4, 5, 6, 7}
	if testing.Short() {
		bits = []int{0, 7}
	}
	for i := range data {
		for _, bit := range bits {
			d := bytes.Clone(data)
			d[i] ^= 1 << bit
			_, err := readBytes(d, defaultLimits)
			var want []error
			switch {
			case i < 8:
				want = []error{ErrNotTrace}
			case i == 8 && Version^(1<<bit) == 0:
				want = []error{ErrCorrupt} // version 0
			case i == 8 && Version^(1<<bit) < Version:
				// An older version: the frames after the header are
				// of types it does not know, or read alike.
				want = []error{ErrCorrupt, nil}
			case i < 10:
				want = []error{ErrVersion}
			default:
				want = []error{ErrCorrupt}
			}
			ok := false
			for _, k := range want {
				ok = ok || errors.Is(err, k) || (k == nil && err == nil)
			}
			if !ok {
				t.Fatalf("bit %d of byte %d flipped: %v, want %v", bit, i, err, want)
			}
		}
	}
}

func TestChecksumMessage(t *testing.T) {
	data, _ := writeSample(t, Options{}, true)
	offs := frameOffsets(data)
	data[offs[2]+frameHeaderSize+3] ^= 0x40
	_, err := readBytes(data, defaultLimits)
	want := "corrupt frame at offset " + strconv.Itoa(offs[2]) + ": checksum mismatch"
	if !errors.Is(err, ErrCorrupt) || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

func TestNewerVersion(t *testing.T) {
	data, _ := writeSample(t, Options{}, true)
	binary.LittleEndian.PutUint16(data[8:], Version+1)
	path := filepath.Join(t.TempDir(), "new.envb")
	os.WriteFile(path, data, 0o600)
	tr, err := ReadFile(path)
	if tr != nil || !errors.Is(err, ErrVersion) {
		t.Fatalf("got %v, %v; want ErrVersion", tr, err)
	}
	want := "read trace " + path + ": trace format version 3 is newer than this envbisect supports (2): upgrade envbisect"
	if err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	// Only the first 10 bytes are needed to tell.
	if _, err := readBytes(data[:10], defaultLimits); !errors.Is(err, ErrVersion) {
		t.Errorf("a newer preamble cut after its version: %v, want ErrVersion", err)
	}
}

func TestForeignFiles(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	elf, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string][]byte{
		"elf":         elf[:4096],
		"text":        []byte("hello, world\nthis is not a trace\n"),
		"short text":  []byte("ENV"[:2] + "X"),
		"gzip":        {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3},
		"empty":       {},
		"magic-ish":   []byte("ENVBTRC\x01\x01\x00\x00\x00\x00\x00\x00\x00"),
		"cbor header": {0xa1, 0x01, 0x41, 0x78},
	}
	dir := t.TempDir()
	for name, data := range cases {
		path := filepath.Join(dir, name)
		os.WriteFile(path, data, 0o600)
		tr, err := ReadFile(path)
		if tr != nil || !errors.Is(err, ErrNotTrace) || !strings.Contains(err.Error(), "not an envbisect trace") {
			t.Errorf("%s: got %v, %v; want ErrNotTrace", name, tr, err)
		}
	}
	_, err = ReadFile(filepath.Join(dir, "missing"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// Traces that are well framed but break a rule of the format.
func TestInvariants(t *testing.T) {
	enc := encoder(t)
	hdr := enc(sampleHeader())
	end := enc(sampleEnd())
	page := randomBytes(5, 200)
	addr := trace.Hash(sha256.Sum256(page))
	blob := append(addr[:len(addr):len(addr)], page...)
	call := func(seq uint64, m ...trace.Mem) trace.Event {
		return trace.Event{Call: &trace.Call{Seq: seq, Mem: m}}
	}
	events := func(evs ...trace.Event) []byte { return enc(evs) }
	type frame struct {
		t       byte
		flags   byte
		payload []byte
	}
	pre := appendPreamble(nil)
	cases := []struct {
		name   string
		frames []frame
		pre    []byte
		kind   error
		msg    string
	}{
		{"valid", []frame{{1, 0, hdr}, {4, 0, blob}, {3, 0, events(call(1, trace.Mem{Dir: 2, Len: 200, Blob: &addr}))}, {5, 0, end}}, nil, nil, ""},
		{"missing blob", []frame{{1, 0, hdr}, {3, 0, events(call(7, trace.Mem{Dir: 2, Len: 200, Blob: &addr}))}, {4, 0, blob}, {5, 0, end}}, nil, ErrCorrupt,
			"event at seq 7 references blob " + hex.EncodeToString(addr[:]) + " that the trace does not contain"},
		{"data and blob", []frame{{1, 0, hdr}, {4, 0, blob}, {3, 0, events(call(1, trace.Mem{Dir: 2, Len: 200, Data: []byte("x"), Blob: &addr}))}}, nil, ErrCorrupt, "both inline data and a blob"},
		{"blob longer than len", []frame{{1, 0, hdr}, {4, 0, blob}, {3, 0, events(call(1, trace.Mem{Dir: 2, Len: 100, Blob: &addr}))}}, nil, ErrCorrupt, "200 bytes of data are more than its length 100"},
		{"blob hash wrong", []frame{{1, 0, hdr}, {4, 0, append(bytes.Clone(blob), 1)}}, nil, ErrCorrupt, "blob content does not match its address"},
		{"blob too short", []frame{{1, 0, hdr}, {4, 0, blob[:31]}}, nil, ErrCorrupt, "shorter than its 32-byte address"},
		{"no header", []frame{{3, 0, events()}}, nil, ErrCorrupt, "the first frame is a events frame, not the header"},
		{"second header", []frame{{1, 0, hdr}, {1, 0, hdr}}, nil, ErrCorrupt, "a second header frame"},
		{"second start", []frame{{1, 0, hdr}, {2, 0, enc(sampleStart())}, {2, 0, enc(sampleStart())}}, nil, ErrCorrupt, "a second start frame"},
		{"start after events", []frame{{1, 0, hdr}, {3, 0, events(call(1))}, {2, 0, enc(sampleStart())}}, nil, ErrCorrupt, "a start frame after events"},
		{"after end", []frame{{1, 0, hdr}, {5, 0, end}, {3, 0, events()}}, nil, ErrCorrupt, "data after the end frame"},
		{"second end", []frame{{1, 0, hdr}, {5, 0, end}, {5, 0, end}}, nil, ErrCorrupt, "data after the end frame"},
		{"type 0", []frame{{1, 0, hdr}, {0, 0, nil}}, nil, ErrCorrupt, "frame type 0 is invalid"},
		{"type 8", []frame{{1, 0, hdr}, {8, 0, end}}, nil, ErrCorrupt, "frame type 8 is invalid"},
		{"chunk in version 1", []frame{{1, 0, hdr}, {6, 0, end}}, []byte("ENVBTRC\x00\x01\x00\x00\x00\x00\x00\x00\x00"), ErrCorrupt, "frame type 6 is invalid"},
		{"flags", []frame{{1, 0, hdr}, {5, 2, end}}, nil, ErrCorrupt, "unknown flags 0x02"},
		{"not zstd", []frame{{1, 0, hdr}, {5, 1, end}}, nil, ErrCorrupt, "zstd"},
		{"not cbor", []frame{{1, 0, hdr}, {3, 0, []byte{0xff, 0xff}}}, nil, ErrCorrupt, "events"},
		{"trailing cbor", []frame{{1, 0, hdr}, {3, 0, append(events(call(1)), 0)}}, nil, ErrCorrupt, "events"},
		{"wrong cbor type", []frame{{1, 0, hdr}, {3, 0, enc(sampleStart())}}, nil, ErrCorrupt, "events"},
		{"indefinite length", []frame{{1, 0, hdr}, {3, 0, []byte{0x9f, 0xff}}}, nil, ErrCorrupt, "indefinite-length"},
		{"duplicate key", []frame{{1, 0, []byte{0xa2, 0x01, 0x41, 'a', 0x01, 0x41, 'b'}}}, nil, ErrCorrupt, "duplicate map key"},
		{"empty event", []frame{{1, 0, hdr}, {3, 0, []byte{0x81, 0xa0}}}, nil, ErrCorrupt, "neither a call nor a process event"},
		{"seq order", []frame{{1, 0, hdr}, {3, 0, events(call(2))}, {3, 0, events(call(2))}}, nil, ErrCorrupt, "call seq 2 follows seq 2"},
		{"version 0", nil, []byte("ENVBTRC\x00\x00\x00\x00\x00\x00\x00\x00\x00"), ErrCorrupt, "corrupt preamble: format version 0 is invalid"},
		{"reserved preamble", nil, []byte("ENVBTRC\x00\x01\x00\x00\x00\x00\x00\x00\x01"), ErrCorrupt, "corrupt preamble: reserved bytes"},
		{"header only", []frame{}, nil, ErrTruncated, "trace ends at offset 16 before its header frame is complete"},
		{"no end", []frame{{1, 0, hdr}, {3, 0, events(call(1), call(2))}}, nil, ErrTruncated,
			"without an end frame: the recording was cut short (the recorder was killed or the disk filled); 2 events are readable"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := pre
			if c.pre != nil {
				b = c.pre
			}
			b = bytes.Clone(b)
			for _, f := range c.frames {
				b = appendRawFrame(b, f.t, f.flags, f.payload)
			}
			_, err := readBytes(b, defaultLimits)
			if c.kind == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, c.kind) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("got %v, want %v saying %q", err, c.kind, c.msg)
			}
		})
	}
	// The reserved bytes of a frame header are covered by the checksum
	// only through their effect on nothing: test them with a fixed CRC.
	b := appendRawFrame(bytes.Clone(pre), 1, 0, hdr)
	b[preambleSize+2] = 1
	b = fixCRCs(b)
	if _, err := readBytes(b, defaultLimits); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "reserved bytes are not zero") {
		t.Errorf("reserved frame bytes: %v", err)
	}
}

// Every length is bounded before anything is allocated for it.
func TestLimits(t *testing.T) {
	big := bytes.Repeat([]byte{0}, 4096)
	data := writeOneBuffer(t, big)
	lim := limits{maxStored: 1 << 20, maxDecoded: 1024}
	if _, err := readBytes(data, lim); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "decoded payload is over the limit of 1024 bytes") {
		t.Errorf("decoded limit: %v", err)
	}
	lim = limits{maxStored: 50, maxDecoded: 1 << 20}
	if _, err := readBytes(data, lim); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "over the limit of 50") {
		t.Errorf("stored limit: %v", err)
	}
	// A length of 4 GiB - 1 in a 30-byte file.
	b := appendRawFrame(appendPreamble(nil), 1, 0, nil)
	binary.LittleEndian.PutUint32(b[preambleSize+4:], 0xffffffff)
	if _, err := readBytes(b, defaultLimits); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "over the limit of 67108864") {
		t.Errorf("huge length: %v", err)
	}
	// A length inside the limit, past the end of the input, as a frame
	// cut while being written has it (its checksum is not that of the
	// bytes there are).
	binary.LittleEndian.PutUint32(b[preambleSize+4:], MaxStoredPayload)
	b[preambleSize+8] ^= 0xff
	if _, err := readBytes(b, defaultLimits); !errors.Is(err, ErrTruncated) {
		t.Errorf("length past the end: %v", err)
	}
}

// writeOneBuffer writes a trace holding one buffer of data.
func writeOneBuffer(t *testing.T, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, sampleHeader())
	if err != nil {
		t.Fatal(err)
	}
	ev := trace.Event{Call: &trace.Call{Seq: 1, Mem: []trace.Mem{{Dir: trace.Out, Len: uint64(len(data)), Data: data}}}}
	if err := w.WriteEvents([]trace.Event{ev}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// encoder returns a function that encodes v as trace frames do, failing
// t if it cannot.
func encoder(t *testing.T) func(v any) []byte {
	t.Helper()
	em, err := newEncMode()
	if err != nil {
		t.Fatal(err)
	}
	return func(v any) []byte {
		t.Helper()
		b, err := em.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
}
