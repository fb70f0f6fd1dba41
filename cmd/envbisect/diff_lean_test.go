package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// diff reads its traces without the contents of files (stored out of
// line) and reads in only those it compares with different addresses and
// those it prints: a file read differently in the two runs is still
// reported at its first differing byte, and a large read printed as
// context still shows its bytes.
func TestDiffLeanRead(t *testing.T) {
	same := strings.Repeat("same-content ", 200) // 2,600 bytes: a blob
	conf := []byte(strings.Repeat("key = value\n", 200))
	run := func(base int32, conf []byte) string {
		r := newDiffRun(t, base)
		diffPrologue(r)
		r.call(1, "openat", 3, "/etc/same", diffAtFDCWD)
		tracetest.Out(r.call(1, "read", int64(len(same)), "/etc/same", 3, 0, 4096), 1, same)
		r.call(1, "close", 0, "/etc/same", 3)
		r.call(1, "openat", 3, "/etc/app.conf", diffAtFDCWD)
		tracetest.Out(r.call(1, "read", int64(len(conf)), "/etc/app.conf", 3, 0, 4096), 1, string(conf))
		r.call(1, "close", 0, "/etc/app.conf", 3)
		r.exit(0)
		return r.file("t.envb")
	}
	bad := bytes.Clone(conf)
	copy(bad[1500:], "KEY")
	a, b := run(1000, conf), run(2000, bad)

	code, out, errs := runCLI("diff", "--context", "4", a, b)
	if code != 1 {
		t.Fatalf("diff: exit %d, stderr %q, output:\n%s", code, errs, out)
	}
	for _, want := range []string{
		"offset 1500",              // the differing read, compared after reading its bytes in
		`read(3, "same-content sa`, // a context call, printed with its bytes
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the output:\n%s", want, out)
		}
	}
	if code, out, _ := runCLI("diff", a, a); code != 0 {
		t.Errorf("a trace against itself: exit %d:\n%s", code, out)
	}
}

// What diff prints, from traces read without files' contents, with a
// lean graph for the echoed ids and keys that share their strings, is
// what the whole traces, read into memory with a whole graph, print: on
// two recordings of a real program that reads a file that changed
// between them (and /etc/services, blobs of the same content in both),
// as text, with context, and as JSON.
func TestDiffLeanSameOutput(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace)
	dir := t.TempDir()
	conf := filepath.Join(dir, "app.conf")
	script := fmt.Sprintf("cat /etc/services > /dev/null; getent hosts localhost; cat %s; ls /usr/bin | wc -l", conf)
	record := func(name, content string) string {
		if err := os.WriteFile(conf, []byte(strings.Repeat("key = value\n", 100)+content), 0o644); err != nil {
			t.Fatal(err)
		}
		tr := filepath.Join(dir, name)
		if code, _, errs := runCLI("record", "-q", "-o", tr, "--", "sh", "-c", script); code != 0 {
			t.Fatalf("record: exit %d: %s", code, errs)
		}
		return tr
	}
	a, b := record("a.envb", "mode = fast\n"), record("b.envb", "mode = slow\n")

	ta, err := tracefile.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := tracefile.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := systable.New(ta.Header.Arch)
	if err != nil {
		t.Fatal(err)
	}
	g, err := depgraph.Build(tab, &ta.Header, ta.Events)
	if err != nil {
		t.Fatal(err)
	}
	paths := append(trace.CallPaths(ta.Events), trace.CallPaths(tb.Events)...)
	res := align.Diff(tab,
		align.Run{Header: &ta.Header, Start: trace.TouchedMountsOnly(ta.Start, paths), Events: ta.Events},
		align.Run{Header: &tb.Header, Start: trace.TouchedMountsOnly(tb.Start, paths), Events: tb.Events},
		align.Options{Window: align.DefaultWindow, Echo: g.EchoOf})
	if !res.Differs() {
		t.Fatal("the two recordings do not differ: the test compares nothing")
	}
	for _, args := range [][]string{{}, {"-C", "3"}, {"--json"}} {
		var want bytes.Buffer
		if len(args) > 0 && args[0] == "--json" {
			err = render.WriteDiffJSON(&want, tab, res, 0)
		} else {
			context := 0
			if len(args) > 0 {
				context = 3
			}
			err = render.WriteDiffText(&want, tab, res, render.DiffOptions{StringSize: render.DefaultStringSize, Context: context},
				render.DiffSide{Name: a, Header: &ta.Header}, render.DiffSide{Name: b, Header: &tb.Header})
		}
		if err != nil {
			t.Fatal(err)
		}
		code, got, errs := runCLI(append([]string{"diff", a, b}, args...)...)
		if code != 1 {
			t.Fatalf("diff %v: exit %d: %s", args, code, errs)
		}
		if got != want.String() {
			t.Errorf("diff %v prints another thing than the whole traces:\n got: %.3000s\nwant: %.3000s", args, got, want.String())
		}
	}
}
