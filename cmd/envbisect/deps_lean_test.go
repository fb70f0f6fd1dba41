package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/tracefile"
)

// The lean read deps makes (files' contents left in the trace file) gives
// the same dependency graph as the full read, on a recorded trace with
// large reads of files (left out) and of a pipe (kept): the same groups,
// resources and edges, printed the same in every form deps has.
func TestDepsLeanReadSameGraph(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace)
	tr := filepath.Join(t.TempDir(), "t.envb")
	script := "cat /etc/services /etc/passwd > /dev/null; ls -l /usr/bin | wc -l; getent hosts localhost"
	if code, _, errs := runCLI("record", "-q", "-o", tr, "--", "sh", "-c", script); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errs)
	}
	full, err := tracefile.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	lean, tab, err := readTraceForGraph(tr, streams{out: &bytes.Buffer{}, err: &bytes.Buffer{}})
	if err != nil {
		t.Fatal(err)
	}
	left, keptBlobs := 0, 0
	for _, ev := range lean.Events {
		if ev.Call == nil {
			continue
		}
		for _, m := range ev.Call.Mem {
			switch {
			case m.Blob != nil && m.Data == nil && m.Len > 0:
				left++
			case m.Blob != nil:
				keptBlobs++
			}
		}
	}
	if left == 0 || keptBlobs == 0 {
		t.Fatalf("%d buffers left out and %d out-of-line buffers kept: the trace tests nothing", left, keptBlobs)
	}
	printDeps := func(tf *tracefile.Trace) map[string]string {
		g, err := depgraph.Build(tab, &tf.Header, tf.Events)
		if err != nil {
			t.Fatal(err)
		}
		v := render.NewDeps(g, tab, tf.Events, nil, render.DefaultStringSize)
		out := map[string]string{}
		for name, write := range map[string]func(*bytes.Buffer) error{
			"groups": func(b *bytes.Buffer) error { return v.WriteGroups(b) },
			"json":   func(b *bytes.Buffer) error { return v.WriteJSON(b) },
			"dot":    func(b *bytes.Buffer) error { return v.WriteDot(b) },
		} {
			var b bytes.Buffer
			if err := write(&b); err != nil {
				t.Fatal(err)
			}
			out[name] = b.String()
		}
		return out
	}
	want, got := printDeps(full), printDeps(lean)
	for name := range want {
		if got[name] != want[name] {
			t.Errorf("deps %s differs after the lean read:\n got: %.2000s\nwant: %.2000s", name, got[name], want[name])
		}
	}
}
