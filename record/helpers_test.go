package record

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// recordIn records argv with opts and reads the trace back.
func recordIn(t *testing.T, opts Options, argv ...string) (*Summary, *tracefile.Trace) {
	t.Helper()
	testutil.Require(t, testutil.Ptrace)
	if opts.Output == "" {
		opts.Output = filepath.Join(t.TempDir(), "t.envb")
	}
	opts.Argv = argv
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	if opts.Stdin == nil {
		opts.Stdin = devnull
	}
	if opts.Stdout == nil {
		opts.Stdout = devnull
	}
	sum, err := Run(opts)
	if err != nil {
		t.Fatalf("record %v: %v", argv, err)
	}
	tr, err := tracefile.ReadFile(opts.Output)
	if err != nil {
		t.Fatalf("read back %s: %v", opts.Output, err)
	}
	return sum, tr
}

// calls returns the trace's calls named name (all calls for "").
func calls(t *testing.T, tr *tracefile.Trace, name string) []*trace.Call {
	t.Helper()
	tab := table(t)
	var out []*trace.Call
	for _, ev := range tr.Events {
		if ev.Call == nil {
			continue
		}
		if name == "" || tab.ByNr(int(ev.Call.Nr)).Name == name {
			out = append(out, ev.Call)
		}
	}
	return out
}

func procEvents(tr *tracefile.Trace, kind trace.ProcKind) []*trace.ProcEvent {
	var out []*trace.ProcEvent
	for _, ev := range tr.Events {
		if ev.Proc != nil && ev.Proc.Kind == kind {
			out = append(out, ev.Proc)
		}
	}
	return out
}

func table(t *testing.T) *systable.Table {
	t.Helper()
	tab, err := systable.Native()
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// outData returns the bytes a call wrote into its buffer argument.
func outData(c *trace.Call) []byte {
	for _, m := range c.Mem {
		if m.Dir == trace.Out && m.Part != trace.PartLen {
			return m.Data
		}
	}
	return nil
}

func startValue(tr *tracefile.Trace, kind trace.StartKind, name string) (string, bool) {
	for _, s := range tr.Start {
		if s.Kind == kind && s.Name == name {
			return s.Value, true
		}
	}
	return "", false
}
