package tracefile

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/envbisect/envbisect/trace"
)

var update = flag.Bool("update", false,
	"write testdata/v1/basic.envb if it is missing, and rewrite the fuzz seed corpus")

// fixtureV1 is what testdata/v1/basic.envb holds. The file is frozen: every
// future version of this package must still read it as this. Never change
// this function or regenerate the file; a new format version gets a new
// directory and fixture of its own.
func fixtureV1() *Trace {
	page := bytes.Repeat([]byte("127.0.0.1 localhost\n::1 localhost ip6-localhost\n"), 80) // 3920 bytes
	ino := make([]byte, 144)
	for i := range ino {
		ino[i] = byte(i * 7)
	}
	hdr := trace.Header{
		Tool: "envbisect fixture", Arch: "amd64", Kernel: "6.1.0-18-amd64", Host: "good",
		Command: []string{"cat", "/etc/hosts"}, Cwd: "/home/user",
		Started: time.Date(2025, 3, 1, 14, 2, 7, 123456789, time.FixedZone("", 3600)),
		Backend: trace.BackendPtraceSeccomp, ASLR: false,
		Filtered: []string{"clock_gettime"}, Exclude: []string{"/home/*/.ssh/*"}, MaxCapture: 1 << 20,
	}
	start := []trace.StartEvent{
		{Kind: trace.StartArgv, Name: "0", Value: "cat"},
		{Kind: trace.StartArgv, Name: "1", Value: "/etc/hosts"},
		{Kind: trace.StartEnv, Name: "LANG", Value: "C.UTF-8"},
		{Kind: trace.StartUmask, Value: "022"},
		{Kind: trace.StartRlimit, Name: "RLIMIT_NOFILE", Value: "1024 524288"},
	}
	c := func(seq uint64, nr uint32, ret int64, path string, mem ...trace.Mem) trace.Event {
		return trace.Event{Call: &trace.Call{Seq: seq, Proc: 1, Thread: 1, TSeq: seq, PID: 900, TID: 900, Nr: nr,
			Args: [6]uint64{0xffffff9c, 0x5000 + seq, 0, 0, 0, 0}, Ret: ret,
			Enter: int64(seq) * 10000, Exit: int64(seq)*10000 + 2000, Path: path, Mem: mem}}
	}
	evs := []trace.Event{
		{Proc: &trace.ProcEvent{Kind: trace.Exec, Proc: 1, Thread: 1, PID: 900, TID: 900, Exe: "/usr/bin/cat", Argv: []string{"cat", "/etc/hosts"}, Time: 1}},
		c(1, 257, 3, "/etc/hosts", trace.Mem{Arg: 1, Dir: trace.In, Addr: 0x5001, Len: 11, Data: []byte("/etc/hosts\x00")}),
		c(2, 5, 0, "/etc/hosts", trace.Mem{Arg: 1, Dir: trace.Out, Addr: 0x7000, Len: 144, Data: ino}),
		c(3, 0, int64(len(page)), "/etc/hosts", trace.Mem{Arg: 1, Dir: trace.Out, Addr: 0x8000, Len: 131072, Flag: trace.Truncated, Data: page}),
		c(4, 1, int64(len(page)), "pipe:[1234]", trace.Mem{Arg: 1, Dir: trace.In, Addr: 0x8000, Len: uint64(len(page)), Data: page}),
		c(5, 257, -2, "/etc/caf\xe9.conf", trace.Mem{Arg: 1, Dir: trace.In, Addr: 0x5005, Len: 16, Data: []byte("/etc/caf\xe9.conf\x00")}),
		c(6, 0, 64, "/home/user/.ssh/id_ed25519", trace.Mem{Arg: 1, Dir: trace.Out, Addr: 0x8000, Len: 64, Flag: trace.Excluded}),
		{Proc: &trace.ProcEvent{Kind: trace.Spawn, Seq: 6, Proc: 2, Thread: 2, PID: 901, TID: 901, Parent: 1, ParentThread: 1, Index: 1, CloneFlags: 0x1200011, Time: 70000}},
		{Proc: &trace.ProcEvent{Kind: trace.Exit, Seq: 6, Proc: 2, Thread: 2, PID: 901, TID: 901, Status: 137, Signal: 9, Time: 71000}},
	}
	exit := c(7, 231, 0, "")
	exit.Call.NoReturn, exit.Call.Exit = true, 0
	evs = append(evs, exit, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Exit, Seq: 7, Proc: 1, Thread: 1, PID: 900, TID: 900, Time: 80000}})
	end := &trace.End{Finished: time.Date(2025, 3, 1, 14, 2, 8, 0, time.FixedZone("", 3600)),
		ExitCode: 0, Calls: 7, Procs: 2, Threads: 2, Stops: 14}
	return &Trace{Header: hdr, Start: start, Events: evs, End: end}
}

// fixtureOptions are the options basic.envb was written with: 64-byte
// blobs, so that it holds small blobs as well as a deduplicated one.
var fixtureOptions = Options{BlobThreshold: 64}

// writeFixture writes t in two events batches.
func writeFixture(tb testing.TB, tr *Trace, opts Options) []byte {
	var buf bytes.Buffer
	w, err := opts.NewWriter(&buf, &tr.Header)
	if err != nil {
		tb.Fatal(err)
	}
	if err := w.WriteStart(tr.Start); err != nil {
		tb.Fatal(err)
	}
	if err := w.WriteEvents(tr.Events[:4]); err != nil {
		tb.Fatal(err)
	}
	if err := w.WriteEvents(tr.Events[4:]); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(tr.End); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

const fixtureV1Path = "testdata/v1/basic.envb"

func TestFixtureV1(t *testing.T) {
	if *update {
		if _, err := os.Stat(fixtureV1Path); errors.Is(err, os.ErrNotExist) {
			os.MkdirAll(filepath.Dir(fixtureV1Path), 0o755)
			if err := os.WriteFile(fixtureV1Path, writeFixture(t, fixtureV1(), fixtureOptions), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("wrote %s", fixtureV1Path)
		} else {
			t.Logf("%s exists and is frozen: not rewritten", fixtureV1Path)
		}
		writeSeedCorpus(t)
	}
	got, err := ReadFile(fixtureV1Path)
	if err != nil {
		t.Fatal(err)
	}
	want := fixtureV1()
	if n := stripBlobs(got.Events); n != 3 {
		t.Errorf("%d buffers came from blobs, want 3", n)
	}
	if !got.Header.Started.Equal(want.Header.Started) || !got.End.Finished.Equal(want.End.Finished) {
		t.Errorf("times: %v, %v; want %v, %v", got.Header.Started, got.End.Finished, want.Header.Started, want.End.Finished)
	}
	got.Header.Started, want.Header.Started = time.Time{}, time.Time{}
	got.End.Finished, want.End.Finished = time.Time{}, time.Time{}
	requireEqual(t, "header", got.Header, want.Header)
	requireEqual(t, "start", got.Start, want.Start)
	requireEqual(t, "events", got.Events, want.Events)
	requireEqual(t, "end", got.End, want.End)
}

// writeSeedCorpus writes the seed corpus of FuzzReader: valid traces, a
// cut one, a corrupted one, a foreign file.
func writeSeedCorpus(t *testing.T) {
	valid, err := os.ReadFile(fixtureV1Path) // version 1, as frozen
	if err != nil {
		t.Fatal(err)
	}
	plain := writeFixture(t, fixtureV1(), Options{Compression: Uncompressed, BlobThreshold: 1000})
	corrupted := bytes.Clone(valid)
	corrupted[len(corrupted)/2] ^= 0x10
	// Version 2 with file objects: small files, chunks and file frames
	// before and after events, compressed and not.
	small := sampleFiles()[1:]
	content, _ := writeContentTrace(t, Options{}, small)
	contentPlain, _ := writeContentTrace(t, Options{Compression: Uncompressed}, sampleFiles()[1:])
	seeds := map[string][]byte{
		"valid":                   valid,
		"valid-uncompressed":      plain,
		"truncated":               valid[:len(valid)*2/3],
		"corrupted":               corrupted,
		"foreign":                 []byte("#!/bin/sh\necho not a trace\n"),
		"v2-content":              content,
		"v2-content-uncompressed": contentPlain,
		"v2-content-truncated":    content[:len(content)*2/3],
	}
	writeSeeds(t, "FuzzReader", seeds)
	// The lean read's: the same, and a trace whose read buffer is a
	// file's chunk (read back as a blob, by the reader or by FillData).
	seeds["v2-chunk-as-blob"] = chunkAsBlobTrace(t)
	writeSeeds(t, "FuzzLeanRead", seeds)
}

// writeSeeds writes seeds as the seed corpus of the fuzz target fn.
func writeSeeds(t *testing.T, fn string, seeds map[string][]byte) {
	dir := filepath.Join("testdata", "fuzz", fn)
	os.MkdirAll(dir, 0o755)
	for name, data := range seeds {
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// chunkAsBlobTrace writes the sample trace with a file stored before the
// events whose content is the 4 KiB page the sample reads and writes:
// those buffers name its chunk instead of a blob of their own.
func chunkAsBlobTrace(t *testing.T) []byte {
	page := sampleEvents()[2].Call.Mem[0].Data
	files := []contentFile{
		{trace.FileObject{ID: 1, Path: "/etc/hosts", Mode: 0o100644}, page, true},
		{trace.FileObject{ID: 2, Path: "/etc/app.conf", Mode: 0o100600}, []byte("listen = 8080\n"), true},
	}
	data, _ := writeContentTrace(t, Options{}, files)
	return data
}

// TestChunkAsBlobSeed: the lean read's seed names a chunk from its
// buffers, so that FuzzLeanRead starts from that case.
func TestChunkAsBlobSeed(t *testing.T) {
	data := chunkAsBlobTrace(t)
	for _, off := range frameOffsets(data) {
		if data[off] == byte(frameBlob) {
			t.Fatalf("a blob frame at offset %d: the page should be stored as the file's chunk only", off)
		}
	}
	full, err := readBytes(data, defaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	if n := stripBlobs(full.Events); n != 2 {
		t.Fatalf("%d buffers out of line, want 2 (the page read and written)", n)
	}
}
