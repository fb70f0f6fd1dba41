package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/tracefile"
)

// What deps prints from its streamed, lean graph (no call held, files'
// contents left in the trace file) is what the whole trace read into
// memory and its whole graph print, on a recorded trace with large reads
// of files (left out), of a pipe (kept) and a DNS lookup: every form
// deps has, and --group in each of them for a group of a file (its calls
// read again, buffers and all) and for the group of the first process.
func TestDepsStreamedSameOutput(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace)
	tr := filepath.Join(t.TempDir(), "t.envb")
	script := "cat /etc/services /etc/passwd > /dev/null; ls -l /usr/bin | wc -l; getent hosts localhost"
	if code, _, errs := runCLI("record", "-q", "-o", tr, "--", "sh", "-c", script); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errs)
	}
	whole, err := tracefile.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := systable.New(whole.Header.Arch)
	if err != nil {
		t.Fatal(err)
	}
	g, err := depgraph.Build(tab, &whole.Header, whole.Events)
	if err != nil {
		t.Fatal(err)
	}
	// The groups asked for: /etc/services (read in blobs, left out of the
	// lean read) and the first call's.
	services := 0
	for _, gr := range g.Groups() {
		if gr.Kind == depgraph.GroupFile && gr.Name == "/etc/services" {
			services = int(gr.ID)
		}
	}
	if services == 0 {
		t.Fatalf("no group of /etc/services among %d", len(g.Groups()))
	}
	first := int(g.GroupOf(g.Calls()[0].Seq).ID)

	for _, group := range []int{0, services, first} {
		for _, form := range []string{"", "--json", "--dot"} {
			var want bytes.Buffer
			var gr *depgraph.Group
			if group != 0 {
				gr = g.Group(depgraph.GroupID(group))
			}
			v := render.NewDeps(g, tab, render.DepsOptions{Group: gr, Size: render.DefaultStringSize, Main: render.MainThreadsOf(whole.Events)})
			switch {
			case form == "--json":
				err = v.WriteJSON(&want)
			case form == "--dot":
				err = v.WriteDot(&want)
			case gr != nil:
				err = v.WriteGroup(&want)
			default:
				err = v.WriteGroups(&want)
			}
			if err != nil {
				t.Fatal(err)
			}
			args := []string{"deps", tr}
			if form != "" {
				args = append(args, form)
			}
			if group != 0 {
				args = append(args, "--group", fmt.Sprint(group))
			}
			code, got, errs := runCLI(args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errs)
			}
			if got != want.String() {
				t.Errorf("%v prints another thing than the whole trace's graph:\n got: %.3000s\nwant: %.3000s", args, got, want.String())
			}
		}
	}
}
