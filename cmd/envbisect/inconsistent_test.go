package main

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/tracefile"
)

// traceFrame is where a frame of a trace file is: its offset, type and
// stored payload's length.
type traceFrame struct {
	off, length int
	typ         byte
}

// traceFrames lists the frames of a well-formed trace file (format:
// docs/trace-format.md; a 16-byte preamble, then frames of a 12-byte
// header and a payload).
func traceFrames(b []byte) []traceFrame {
	var fs []traceFrame
	for off := 16; off+12 <= len(b); {
		n := int(binary.LittleEndian.Uint32(b[off+4:]))
		fs = append(fs, traceFrame{off: off, length: n, typ: b[off]})
		off += 12 + n
	}
	return fs
}

// fixFrameCRC sets the checksum of f to match its bytes: CRC-32C over the
// first 8 bytes of its header and its payload.
func fixFrameCRC(b []byte, f traceFrame) {
	tab := crc32.MakeTable(crc32.Castagnoli)
	c := crc32.Update(0, tab, b[f.off:f.off+8])
	c = crc32.Update(c, tab, b[f.off+12:f.off+12+f.length])
	binary.LittleEndian.PutUint32(b[f.off+8:], c)
}

// TestInconsistentNotCutShort: complete traces (their end frame there)
// that break a rule are errors of show (exit 1) and diff (exit 2) naming
// what is wrong and where, never "cut short"; a trace whose frames stop
// is the one show reads with a "cut short" warning.
func TestInconsistentNotCutShort(t *testing.T) {
	_, _, evs, _ := showTrace()
	good := writeShowTraceWith(t, tracefile.Options{Compression: tracefile.Uncompressed}, false)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	fs := traceFrames(data)
	var ev traceFrame
	for _, f := range fs {
		if f.typ == 3 {
			ev = f
		}
	}
	if ev.typ != 3 || fs[len(fs)-1].typ != 5 {
		t.Fatalf("frames %+v: want an events frame and the end frame last", fs)
	}
	payload := func(b []byte) []byte { return b[ev.off+12 : ev.off+12+ev.length] }
	evOff := strconv.Itoa(ev.off)
	cases := []struct {
		name   string
		damage func(b []byte) []byte
		msg    string
	}{
		{"length past the end", func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[ev.off+4:], uint32(len(b)))
			return b
		}, "corrupt frame at offset " + evOff + ": its length of " + strconv.Itoa(len(data)) + " bytes runs past the end of the file, over the end frame at offset"},
		{"event count more than held", func(b []byte) []byte {
			p := payload(b)
			if p[0] != 0x80+byte(len(evs)) {
				t.Fatalf("events payload starts %#x, want a CBOR array of %d", p[0], len(evs))
			}
			p[0]++
			fixFrameCRC(b, ev)
			return b
		}, "corrupt frame at offset " + evOff + ": events: the data ends inside an item: a count or length it declares is more than the whole frame holds"},
		{"exit of an unknown process", func(b []byte) []byte {
			// The exit event's process (key 3) is 2: make it 9. Its map
			// starts with kind (key 1) 5, seq (key 2) 5.
			p := payload(b)
			i := bytes.Index(p, []byte{0x01, 0x05, 0x02, 0x05, 0x03, 0x02})
			if i < 0 {
				t.Fatal("no exit event of process 2 in the events payload")
			}
			p[i+5] = 9
			fixFrameCRC(b, ev)
			return b
		}, "corrupt frame at offset " + evOff + ": the exit event of process 9 (after seq 5) names a process no earlier event names"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.envb")
			if err := os.WriteFile(path, c.damage(bytes.Clone(data)), 0o600); err != nil {
				t.Fatal(err)
			}
			code, _, errs := runCLI("show", path)
			if code != exitError || !strings.Contains(errs, c.msg) || strings.Contains(errs, "cut short") {
				t.Errorf("show: exit %d, stderr %q; want %d saying %q, not cut short", code, errs, exitError, c.msg)
			}
			code, _, errs = runCLI("diff", good, path)
			if code != diffTrouble || !strings.Contains(errs, c.msg) || strings.Contains(errs, "cut short") {
				t.Errorf("diff: exit %d, stderr %q; want %d saying %q, not cut short", code, errs, diffTrouble, c.msg)
			}
		})
	}
	// The frames stop before the end frame: cut short, shown with a
	// warning (exit 0), and diff's trouble.
	cut := filepath.Join(t.TempDir(), "cut.envb")
	if err := os.WriteFile(cut, data[:fs[len(fs)-1].off], 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI("show", cut); code != 0 || !strings.Contains(errs, "the recording was cut short") {
		t.Errorf("show of a cut trace: exit %d, stderr %q; want 0 and a cut-short warning", code, errs)
	}
	if code, _, errs := runCLI("diff", good, cut); code != diffTrouble || !strings.Contains(errs, cut+" is cut short") {
		t.Errorf("diff with a cut trace: exit %d, stderr %q; want %d, cut short", code, errs, diffTrouble)
	}
}
