package tracefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/envbisect/envbisect/trace"
)

// randomBytes returns n bytes that do not compress, the same for a seed.
func randomBytes(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 0))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func sampleHeader() *trace.Header {
	return &trace.Header{
		Tool:       "envbisect test",
		Arch:       "amd64",
		Kernel:     "6.1.0-test",
		Host:       "good-host",
		Command:    []string{"sh", "-c", "cat /etc/hosts"},
		Cwd:        "/home/user",
		Started:    time.Date(2025, 3, 1, 14, 2, 7, 123456789, time.UTC),
		Backend:    trace.BackendPtraceSeccomp,
		ASLR:       true,
		Filtered:   []string{"getpid", "clock_gettime"},
		Exclude:    []string{"/home/*/.ssh/*"},
		MaxCapture: 1 << 20,
	}
}

func sampleStart() []trace.StartEvent {
	return []trace.StartEvent{
		{Kind: trace.StartArgv, Name: "0", Value: "sh"},
		{Kind: trace.StartEnv, Name: "LANG", Value: "C.UTF-8"},
		{Kind: trace.StartCwd, Value: "/home/user"},
		{Kind: trace.StartRlimit, Name: "RLIMIT_NOFILE", Value: "1024 524288"},
	}
}

func sampleEnd() *trace.End {
	return &trace.End{
		Finished:    time.Date(2025, 3, 1, 14, 2, 8, 5, time.UTC),
		ExitCode:    130,
		Signal:      2,
		Calls:       9,
		Procs:       2,
		Threads:     2,
		Stops:       20,
		Interrupted: true,
	}
}

// sampleEvents returns events using every field, with one 4 KiB buffer
// captured twice (read, then written), so that it is stored once.
func sampleEvents() []trace.Event {
	page := randomBytes(1, 4096)
	stat := make([]byte, 144)
	binary.LittleEndian.PutUint64(stat[8:], 1234567) // st_ino
	binary.LittleEndian.PutUint64(stat[48:], 4096)   // st_size
	call := func(seq uint64, nr uint32, ret int64, path string, mem ...trace.Mem) trace.Event {
		return trace.Event{Call: &trace.Call{
			Seq: seq, Proc: 1, Thread: 1, TSeq: seq, PID: 4242, TID: 4242, Nr: nr,
			Args: [6]uint64{3, 0x7ffe0000 + seq, 4096, 0, 0xffffffffffffffff, 6},
			Ret:  ret, Enter: int64(seq) * 1000, Exit: int64(seq)*1000 + 500, Path: path, Mem: mem,
		}}
	}
	evs := []trace.Event{
		{Proc: &trace.ProcEvent{Kind: trace.Exec, Seq: 0, Proc: 1, Thread: 1, PID: 4242, TID: 4242,
			Exe: "/usr/bin/cat", Argv: []string{"cat", "/etc/hosts"}, Time: 10}},
		call(1, 257, 3, "/etc/hosts", trace.Mem{Arg: 1, Dir: trace.In, Addr: 0x4000, Len: 11, Data: []byte("/etc/hosts\x00")}),
		call(2, 0, 4096, "/etc/hosts", trace.Mem{Arg: 1, Dir: trace.Out, Addr: 0x7ffe0002, Len: 4096, Data: page}),
		call(3, 1, 4096, "pipe:[77]", trace.Mem{Arg: 1, Dir: trace.In, Addr: 0x7ffe0003, Len: 4096, Data: page}),
		call(4, 262, 0, "/tmp/caf\xe9", trace.Mem{Arg: 2, Dir: trace.Out, Addr: 0x7ffe1000, Len: 144, Data: stat}),
		call(5, 0, 1000, "/var/log/big", trace.Mem{Arg: 1, Dir: trace.Out, Len: 1000, Flag: trace.Truncated, Data: randomBytes(2, 100)}),
		call(6, 0, 500, "/home/user/.ssh/id_rsa", trace.Mem{Arg: 1, Dir: trace.Out, Len: 500, Flag: trace.Excluded}),
		call(7, 0, -14, "/etc/hosts", trace.Mem{Arg: 1, Dir: trace.Out, Addr: 0x10, Len: 10, Flag: trace.Fault}),
		call(8, 47, 30, "socket:[9]",
			trace.Mem{Arg: 1, Part: trace.PartName, Dir: trace.Out, Len: 16, Data: []byte{2, 0, 0, 80, 127, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}},
			trace.Mem{Arg: 1, Part: trace.PartIovData, Dir: trace.Out, Len: 30, Data: []byte("HTTP/1.0 200 OK\r\nServer: x\r\n\r\n")}),
		{Proc: &trace.ProcEvent{Kind: trace.Spawn, Seq: 8, Proc: 2, Thread: 2, PID: 4243, TID: 4243,
			Parent: 1, ParentThread: 1, Index: 1, CloneFlags: 0x1200011, Time: 9000}},
		{Proc: &trace.ProcEvent{Kind: trace.Exit, Seq: 8, Proc: 2, Thread: 2, PID: 4243, TID: 4243, Status: 137, Signal: 9, Time: 9500}},
	}
	rn := call(9, 60, 0, "")
	rn.Call.NoReturn, rn.Call.Exit, rn.Call.Path2 = true, 0, "/second/path"
	return append(evs, rn)
}

// writeSample writes the sample trace with opts into memory.
func writeSample(t testing.TB, opts Options, complete bool) ([]byte, Stats) {
	t.Helper()
	var buf bytes.Buffer
	w, err := opts.NewWriter(&buf, sampleHeader())
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteStart(sampleStart()); err != nil {
		t.Fatal(err)
	}
	evs := sampleEvents()
	if err := w.WriteEvents(evs[:5]); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteEvents(evs[5:]); err != nil {
		t.Fatal(err)
	}
	if complete {
		err = w.Close(sampleEnd())
	} else {
		err = w.Abort()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), w.Stats()
}

// readBytes reads a whole trace from memory, with the limits given.
func readBytes(data []byte, lim limits) (*Trace, error) {
	r, err := newReader(bytes.NewReader(data), "", lim)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return readAll(r)
}

// stripBlobs clears the Blob addresses the reader leaves set, and returns
// how many there were.
func stripBlobs(evs []trace.Event) int {
	n := 0
	for _, ev := range evs {
		if ev.Call == nil {
			continue
		}
		for i := range ev.Call.Mem {
			if ev.Call.Mem[i].Blob != nil {
				n++
				ev.Call.Mem[i].Blob = nil
			}
		}
	}
	return n
}

// requireEqual fails unless got and want are deeply equal.
func requireEqual(t testing.TB, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s differs:\n got: %+v\nwant: %+v", what, got, want)
	}
}

// kindOf names which sentinel err wraps, or "" for none.
func kindOf(err error) string {
	for _, k := range []error{ErrNotTrace, ErrVersion, ErrCorrupt, ErrTruncated} {
		if errors.Is(err, k) {
			return k.Error()
		}
	}
	return ""
}

// appendRawFrame appends a frame with a correct checksum, whatever its
// type, flags and payload.
func appendRawFrame(b []byte, t byte, flags byte, payload []byte) []byte {
	start := len(b)
	b = append(b, t, flags, 0, 0)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	b = append(b, 0, 0, 0, 0)
	b = append(b, payload...)
	binary.LittleEndian.PutUint32(b[start+8:], frameCRC(b[start:], payload))
	return b
}

// frameOffsets lists the offsets of the frames of a well-formed trace.
func frameOffsets(data []byte) []int {
	var offs []int
	for off := preambleSize; off+frameHeaderSize <= len(data); {
		offs = append(offs, off)
		off += frameHeaderSize + int(binary.LittleEndian.Uint32(data[off+4:]))
	}
	return offs
}

// fixCRCs returns a copy of data with the checksum of every complete frame
// recomputed, so that a fuzzer's mutations reach the payload decoders.
func fixCRCs(data []byte) []byte {
	out := bytes.Clone(data)
	for off := preambleSize; off+frameHeaderSize <= len(out); {
		end := off + frameHeaderSize + int(binary.LittleEndian.Uint32(out[off+4:]))
		if end > len(out) || end < off {
			break
		}
		binary.LittleEndian.PutUint32(out[off+8:], frameCRC(out[off:], out[off+frameHeaderSize:end]))
		off = end
	}
	return out
}
