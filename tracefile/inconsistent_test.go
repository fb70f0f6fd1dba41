package tracefile

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/envbisect/envbisect/trace"
)

// A trace that ends with its end frame is complete: when it breaks a rule
// it is corrupt, with a message naming the rule and the frame's offset,
// never "cut short". Each case has valid checksums (except where the
// damage is a length field, which the checksum covers but which decides
// where the checksummed bytes are).
func TestCompleteButInconsistent(t *testing.T) {
	enc := encoder(t)
	hdr, start, end := enc(sampleHeader()), enc(sampleStart()), enc(sampleEnd())
	page := randomBytes(7, 700)
	addr := trace.Hash(sha256.Sum256(page))
	blob := append(addr[:len(addr):len(addr)], page...)
	call := func(seq uint64, proc uint32, m ...trace.Mem) trace.Event {
		return trace.Event{Call: &trace.Call{Seq: seq, Proc: proc, Thread: proc, Mem: m}}
	}
	proc := func(kind trace.ProcKind, id, parent uint32) trace.Event {
		return trace.Event{Proc: &trace.ProcEvent{Kind: kind, Proc: id, Thread: id, Parent: parent}}
	}
	spawn1 := proc(trace.Spawn, 1, 0)
	events := func(evs ...trace.Event) []byte { return enc(evs) }
	type frame struct {
		t       byte
		flags   byte
		payload []byte
	}
	// frames builds a trace; the offset of frame i is offs[i].
	build := func(fs []frame) (b []byte, offs []int) {
		b = appendPreamble(nil)
		for _, f := range fs {
			offs = append(offs, len(b))
			b = appendRawFrame(b, f.t, f.flags, f.payload)
		}
		return b, offs
	}
	zenc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer zenc.Close()
	twoCalls := events(spawn1, call(1, 1), call(2, 1))
	zCalls := zenc.EncodeAll(twoCalls, nil)
	// The CBOR array of three events, declaring four.
	countMore := bytes.Clone(twoCalls)
	countMore[0]++
	file := trace.FileObject{ID: 1, Path: "/etc/hosts", Size: 700, Chunks: []trace.Hash{sha256.Sum256([]byte("not in the trace"))}}
	frames := func(fs ...frame) []frame {
		all := append([]frame{{1, 0, hdr}, {2, 0, start}}, fs...)
		return append(all, frame{5, 0, end})
	}
	cases := []struct {
		name   string
		frames []frame
		// damage changes the built bytes; frame is the index of the
		// frame the error names.
		damage func(b []byte, offs []int) []byte
		frame  int
		msg    string
	}{
		{name: "count more than the array holds", frames: frames(frame{3, 0, countMore}), frame: 2,
			msg: "events: the data ends inside an item: a count or length it declares is more than the whole frame holds"},
		{name: "compressed events cut inside", frames: frames(frame{3, flagZstd, zCalls[:len(zCalls)-4]}), frame: 2, msg: "zstd"},
		{name: "seq going back", frames: frames(frame{3, 0, events(spawn1, call(5, 1))}, frame{3, 0, events(call(3, 1))}), frame: 3,
			msg: "call seq 3 follows seq 5: seq must increase"},
		{name: "frames after the end", frames: append(frames(frame{3, 0, twoCalls}), frame{3, 0, events(call(3, 1))}), frame: 4,
			msg: "data after the end frame"},
		{name: "blob referenced but absent", frames: frames(frame{3, 0, events(spawn1, call(1, 1, trace.Mem{Dir: trace.Out, Len: 700, Blob: &addr}))}), frame: 2,
			msg: "event at seq 1 references blob"},
		{name: "blob after its reference", frames: frames(frame{3, 0, events(spawn1, call(1, 1, trace.Mem{Dir: trace.Out, Len: 700, Blob: &addr}))}, frame{4, 0, blob}), frame: 2,
			msg: "that the trace does not contain"},
		{name: "content chunk missing", frames: frames(frame{7, 0, enc(file)}), frame: 2,
			msg: `file object 1 ("/etc/hosts") names chunk`},
		{name: "exit of an unknown process", frames: frames(frame{3, 0, events(spawn1, call(1, 1), proc(trace.Exit, 4, 0))}), frame: 2,
			msg: "the exit event of process 4 (after seq 0) names a process no earlier event names"},
		{name: "thread of an unknown process", frames: frames(frame{3, 0, events(spawn1, proc(trace.SpawnThread, 9, 0))}), frame: 2,
			msg: "the spawn thread event of process 9"},
		{name: "unknown parent", frames: frames(frame{3, 0, events(spawn1, proc(trace.Spawn, 2, 6))}), frame: 2,
			msg: "the spawn event of process 2 (after seq 0) names parent process 6, which no earlier event names"},
		{name: "second spawn", frames: frames(frame{3, 0, events(spawn1, call(1, 1))}, frame{3, 0, events(proc(trace.Spawn, 1, 0))}), frame: 3,
			msg: "a second spawn event of process 1"},
		{name: "length past the end", frames: frames(frame{3, 0, twoCalls}), frame: 2,
			damage: func(b []byte, offs []int) []byte {
				binary.LittleEndian.PutUint32(b[offs[2]+4:], uint32(len(b)))
				return b
			}, msg: "runs past the end of the file, over the end frame at offset"},
		{name: "header length past the end", frames: frames(frame{3, 0, twoCalls}), frame: 0,
			damage: func(b []byte, offs []int) []byte {
				binary.LittleEndian.PutUint32(b[offs[0]+4:], uint32(len(b)))
				return b
			}, msg: "runs past the end of the file, over the end frame at offset"},
		{name: "end frame length past the end", frames: frames(frame{3, 0, twoCalls}), frame: 3,
			damage: func(b []byte, offs []int) []byte {
				binary.LittleEndian.PutUint32(b[offs[3]+4:], uint32(len(end)+100))
				return b
			}, msg: "its length field says " + strconv.Itoa(len(end)+100) + " bytes, but the " + strconv.Itoa(len(end)) +
				" bytes after its header are the whole frame (its checksum matches them)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, offs := build(c.frames)
			if c.damage != nil {
				b = c.damage(b, offs)
			}
			check := func(how string, err error) {
				t.Helper()
				want := "corrupt frame at offset " + strconv.Itoa(offs[c.frame]) + ": "
				if !errors.Is(err, ErrCorrupt) || errors.Is(err, ErrTruncated) || errors.Is(err, io.ErrUnexpectedEOF) ||
					!strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), c.msg) || strings.Contains(err.Error(), "cut short") {
					t.Errorf("%s: got %v; want ErrCorrupt saying %q and %q, never cut short", how, err, want, c.msg)
				}
			}
			tr, err := readBytes(b, defaultLimits)
			if tr != nil {
				t.Errorf("read: got a trace of %d events", len(tr.Events))
			}
			check("read", err)
			// The lean read, leaving every blob in the file.
			path := filepath.Join(t.TempDir(), "t.envb")
			if err := os.WriteFile(path, b, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err = ReadOptions{KeepData: func(*trace.Call, *trace.Mem) bool { return false }}.ReadFile(path)
			check("lean read", err)
		})
	}
}

// Only a trace whose frames stop is cut short, also when the frame it
// stops in declares a length past the end: the bytes there are do not
// match its checksum and no end frame follows.
func TestCutShortOnlyWhenFramesStop(t *testing.T) {
	data, _ := writeSample(t, Options{}, true)
	offs := frameOffsets(data)
	last := offs[len(offs)-1] // the end frame
	for _, cut := range []int{last, last + 5, last + frameHeaderSize + 1} {
		_, err := readBytes(data[:cut], defaultLimits)
		if !errors.Is(err, ErrTruncated) || !strings.Contains(err.Error(), "the recording was cut short") {
			t.Errorf("cut at %d (end frame at %d): %v, want ErrTruncated", cut, last, err)
		}
	}
	// An events frame cut inside, its length untouched.
	ev := offs[len(offs)-2]
	if _, err := readBytes(data[:ev+frameHeaderSize+10], defaultLimits); !errors.Is(err, ErrTruncated) {
		t.Errorf("cut inside the last events frame: %v, want ErrTruncated", err)
	}
	// Not an end frame at the tail: its checksum is wrong.
	d := bytes.Clone(data)
	d[len(d)-1] ^= 1
	binary.LittleEndian.PutUint32(d[ev+4:], uint32(len(d)))
	if _, err := readBytes(d, defaultLimits); !errors.Is(err, ErrTruncated) {
		t.Errorf("length past a damaged end frame: %v, want ErrTruncated", err)
	}
}
