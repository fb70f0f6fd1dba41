package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/record"
	"github.com/envbisect/envbisect/replay"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// The object search's read of a trace (readLean) holds few of its
// events, but what its setup computes from them is what it computes from
// the whole trace: the paths the calls name (the mounts the start items
// compare), the recorded executable, the calls a container's seccomp
// filters deny here; and the first calls of causes read back by seq are
// the recorded calls, with their buffers.
func TestReadLean(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Binary("sh"), testutil.Binary("cat"), testutil.Binary("ls"))
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.conf"), []byte("mode=good\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t.envb")
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	script := "for i in 1 2 3 4 5; do cat app.conf; done; ls -l / " + dir + "; mkdir made"
	sum, err := record.Run(record.Options{Output: path, Argv: []string{"sh", "-c", script}, Dir: dir, CPU: -1,
		Stdin: devnull, Stdout: devnull, Stderr: devnull})
	if err != nil || sum.ExitCode != 0 {
		t.Fatalf("record: %v, exit %d", err, sum.ExitCode)
	}
	full, err := tracefile.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A container's filters that deny mkdir and uname, which the recorded
	// command made (sh's mkdir, or ls's) and were not denied then.
	deny := func(nr int) trace.BPFProgram {
		return trace.BPFProgram{{Code: 0x20, K: 0}, {Code: 0x15, Jt: 0, Jf: 1, K: uint32(nr)},
			{Code: 0x06, K: 0x00050000 | uint32(unix.EACCES)}, {Code: 0x06, K: 0x7fff0000}}
	}
	join := &trace.Join{PID: 1, Exec: &trace.ExecSpec{Seccomp: []trace.BPFProgram{deny(unix.SYS_MKDIR), deny(unix.SYS_MKDIRAT)}}}
	var errb bytes.Buffer
	lean, in, err := readLean(path, streams{err: &errb}, join)
	if err != nil || in == nil {
		t.Fatalf("readLean: %v (inspector %v)", err, in != nil)
	}
	if len(lean.Events)*4 > len(full.Events) || len(lean.Files) != len(full.Files) || len(lean.Files) == 0 {
		t.Errorf("the lean trace holds %d of %d events and %d of %d file objects; want far fewer events, every file object",
			len(lean.Events), len(full.Events), len(lean.Files), len(full.Files))
	}
	if got, want := trace.CallPaths(lean.Events), trace.CallPaths(full.Events); !slices.Equal(got, want) {
		t.Errorf("paths named %q; want %q", got, want)
	}
	tab, err := systable.New(full.Header.Arch)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := recordedExecutable(lean.Each, tab), recordedExecutable(full.Each, tab); got != want || want == "" {
		t.Errorf("recorded executable %q; want %q", got, want)
	}
	recFull, err := replay.PrepareStart(full)
	if err != nil {
		t.Fatal(err)
	}
	recLean, err := replay.PrepareStart(lean)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := recLean.DeniedHere(join), recFull.DeniedHere(join); !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("denied here %q; want %q", got, want)
	}

	// The calls read back are the whole recorded ones.
	want := map[uint64]*trace.Call{}
	for _, ev := range full.Events {
		if c := ev.Call; c != nil && (c.Path == filepath.Join(dir, "app.conf") || len(want) == 0) {
			want[c.Seq] = c
		}
	}
	seqs := map[uint64]bool{}
	for q := range want {
		seqs[q] = true
	}
	got, err := firstCalls(path, seqs)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d calls read back; want %d", len(got), len(want))
	}
	for q, c := range want {
		if g := got[q]; g == nil || !reflect.DeepEqual(g, c) {
			t.Errorf("call %d read back: %+v; want %+v", q, g, c)
		}
	}
}
