//go:build linux && amd64

package bpf

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/ptrace"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// calls collects what the ptrace backend records.
type callCollector struct{ calls []*trace.Call }

func (o *callCollector) Start([]trace.StartEvent) {}
func (o *callCollector) Event(ev trace.Event) {
	if ev.Call != nil {
		o.calls = append(o.calls, ev.Call)
	}
}

// memView is a captured buffer as both backends should have it; the
// address is left out (the two runs' layouts differ).
type memView struct {
	arg, part, dir uint8
	len            uint64
	truncated      bool
	fault          bool
	data           []byte
}

func (m memView) String() string {
	return fmt.Sprintf("arg %d part %d dir %d len %d trunc %v fault %v data %q", m.arg, m.part, m.dir, m.len, m.truncated, m.fault, m.data)
}

// from returns the calls from the first for which first holds. The
// victim's kinds mode starts with prctl(PR_SET_NAME): the eBPF run may
// or may not see the read that gates it (Track races with it).
func from[C any](calls []C, first func(C) bool) []C {
	for i, c := range calls {
		if first(c) {
			return calls[i:]
		}
	}
	return nil
}

// TestSameBytesAsPtrace records the victim's kinds mode with the ptrace
// backend and with this one, and checks that every call of the mode has
// the same buffers with the same bytes (but for getrandom's and the
// stat of standard output).
func TestSameBytesAsPtrace(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF, testutil.Ptrace, testutil.Seccomp)
	bin := buildVictim(t)
	file := t.TempDir() + "/kinds.txt"
	if err := os.WriteFile(file, []byte("the same bytes from both backends, please\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Read it once, so that both runs' fstat see the same access time
	// (relatime updates it on the first read after a write).
	if _, err := os.ReadFile(file); err != nil {
		t.Fatal(err)
	}
	tab, err := systable.Native()
	if err != nil {
		t.Fatal(err)
	}
	argv := []string{bin, "kinds", file}

	// ptrace.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte{1})
	w.Close()
	defer r.Close()
	// Standard output a pipe, as in the eBPF run (glibc asks a character
	// device whether it is a terminal).
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	drained := make(chan struct{})
	go func() { io.Copy(io.Discard, outR); outR.Close(); close(drained) }()
	var col callCollector
	res, err := ptrace.Run(ptrace.Config{Config: launch.Config{
		Path: bin, Argv: argv, Env: os.Environ(), Table: tab, CPU: -1,
		Stdin: r, Stdout: outW, Stderr: outW, Observer: &col,
	}})
	outW.Close()
	<-drained
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("ptrace run: %v, %+v", err, res)
	}
	var want [][]memView
	var ptraceNames []string
	for _, c := range from(col.calls, func(c *trace.Call) bool {
		return c.Nr == unix.SYS_PRCTL && c.Args[0] == unix.PR_SET_NAME
	}) {
		var ms []memView
		for _, m := range c.Mem {
			ms = append(ms, memView{m.Arg, uint8(m.Part), uint8(m.Dir), m.Len, m.Flag&trace.Truncated != 0, m.Flag&trace.Fault != 0, m.Data})
		}
		want = append(want, ms)
		ptraceNames = append(ptraceNames, tab.ByNr(int(c.Nr)).Name)
	}

	// eBPF.
	p := loadProbe(t, Options{Filter: Filter{Kind: FilterTree}, RingSize: 1 << 20})
	v := startVictim(t, bin, argv[1:]...)
	if err := p.Track(v.pid); err != nil {
		t.Fatal(err)
	}
	v.release(t)
	recs := collect(t, p, v.pid)
	v.wait(t)
	var got [][]memView
	var names []string
	for _, c := range from(assemble(t, recs), func(c *call) bool {
		return c.Nr == unix.SYS_PRCTL && c.Args[0] == unix.PR_SET_NAME
	}) {
		var ms []memView
		for i, b := range c.Bufs {
			ms = append(ms, memView{b.Arg, b.Part, b.Dir, b.Len, b.Truncated, b.Fault || c.faults[i], c.data[i]})
		}
		got = append(got, ms)
		names = append(names, tab.ByNr(int(c.Nr)).Name)
	}

	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("%d calls from prctl(PR_SET_NAME) recorded with eBPF (%s), %d with ptrace (%s)",
			len(got), strings.Join(names, " "), len(want), strings.Join(ptraceNames, " "))
	}
	for i := range got {
		g, w := got[i], want[i]
		if len(g) != len(w) {
			t.Errorf("call %d (%s): %d buffers, ptrace %d:\n%v\n%v", i, names[i], len(g), len(w), g, w)
			continue
		}
		if names[i] == "getrandom" || names[i] == "newfstatat" {
			// Random bytes differ from run to run, and so does the pipe
			// on standard output that glibc stats.
			for j := range g {
				g[j].data, w[j].data = nil, nil
			}
		}
		for j := range g {
			if g[j].arg != w[j].arg || g[j].part != w[j].part || g[j].dir != w[j].dir || g[j].len != w[j].len ||
				g[j].truncated != w[j].truncated || g[j].fault != w[j].fault || !bytes.Equal(g[j].data, w[j].data) {
				t.Errorf("call %d (%s) buffer %d:\n ebpf  %v\n ptrace %v", i, names[i], j, g[j], w[j])
			}
		}
	}
}
