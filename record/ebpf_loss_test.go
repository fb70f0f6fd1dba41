package record

import (
	"fmt"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/envbisect/envbisect/bisect"
	"github.com/envbisect/envbisect/bpf"
	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
)

// TestEBPFTinyRingLoses records with a 64 KiB ring buffer a command that
// writes 4 MiB buffers in bursts: each burst's chunks overflow the ring
// (the program sends them at once, faster than any reader), and the
// losses are counted in the end frame, placed on the calls (a gap, memory
// flagged lost), and such calls are never replayed: the plan executes
// them and locate's candidates leave them out.
//
// The bursts are 0.2 s apart so that the reader empties the ring in
// between, whatever the machine's load: each write's call record then
// finds room and the call is recorded with its memory flagged lost, and
// the start of every process is seen. (A one-page ring lost whole calls,
// or the command's own exec, when the reader did not run for a while.)
func TestEBPFTinyRingLoses(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF, testutil.Binary("dd"), testutil.Binary("sleep"))
	out := filepath.Join(t.TempDir(), "zeros")
	const ring = 64 << 10
	script := "for i in 1 2 3 4 5 6; do dd if=/dev/zero of=" + out + " bs=4M count=1 status=none || exit 1; sleep 0.2; done"
	_, tr := recordIn(t, Options{Backend: trace.BackendEBPF, RingSize: ring, MaxCapture: 4 << 20},
		"/bin/sh", "-c", script)
	l := tr.End.Lost
	if !l.Any() || l.Chunks == 0 {
		t.Fatalf("a 64 KiB ring lost nothing of six 4 MiB writes: %+v", l)
	}
	if tr.Header.RingSize != ring {
		t.Errorf("header ring size %d, want %d", tr.Header.RingSize, ring)
	}
	var incomplete, gaps uint64
	for _, c := range calls(t, tr, "") {
		if c.Incomplete() {
			incomplete++
		}
		gaps += c.Gap
	}
	if incomplete != l.Incomplete || incomplete == 0 {
		t.Errorf("%d calls hold memory flagged lost, the end frame says %d", incomplete, l.Incomplete)
	}
	if gaps > l.Calls {
		t.Errorf("gaps sum to %d calls, more than the %d the probe lost", gaps, l.Calls)
	}
	g, err := depgraph.Build(table(t), &tr.Header, tr.Events)
	if err != nil {
		t.Fatal(err)
	}
	plan := g.Closure(func(uint64) bool { return true })
	cands := map[uint64]bool{}
	for _, seq := range bisect.Candidates(g) {
		cands[seq] = true
	}
	for _, c := range g.Calls() {
		if !c.Incomplete() {
			continue
		}
		if a, r := plan.Action(c.Seq), plan.Reason(c.Seq); a != depgraph.Execute || r != depgraph.Incomplete {
			t.Errorf("incomplete call %d: plan says %v (%v), want execute (data lost)", c.Seq, a, r)
		}
		if cands[c.Seq] {
			t.Errorf("incomplete call %d is a locate candidate", c.Seq)
		}
	}
}

// TestEBPFDefaultRingLoses records with the ring sized by default
// (bpf.DefaultRingSize for this machine's CPUs, at most 64 MiB) a
// command whose writes are four times the ring: the ring is smaller than
// before, so what overflows it must still be counted. The trace's header
// names the size the ring had, and the calls whose chunks were lost hold
// memory flagged lost, as the end frame counts.
func TestEBPFDefaultRingLoses(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF, testutil.Binary("dd"), testutil.Binary("sleep"))
	ring := bpf.DefaultRingSize(runtime.NumCPU())
	if ring > bpf.MaxDefaultRing || ring < bpf.MinDefaultRing {
		t.Fatalf("default ring of %d bytes for %d CPUs, outside [%d, %d]", ring, runtime.NumCPU(), bpf.MinDefaultRing, bpf.MaxDefaultRing)
	}
	burst := min(4*ring, 256<<20) // the program's bound on one buffer
	out := filepath.Join(t.TempDir(), "zeros")
	script := fmt.Sprintf("for i in 1 2; do dd if=/dev/zero of=%s bs=%d count=1 status=none || exit 1; sleep 0.2; done", out, burst)
	_, tr := recordIn(t, Options{Backend: trace.BackendEBPF, MaxCapture: uint64(burst)}, "/bin/sh", "-c", script)
	if tr.Header.RingSize != uint64(ring) {
		t.Errorf("header ring size %d, want the default %d", tr.Header.RingSize, ring)
	}
	l := tr.End.Lost
	if l.Chunks == 0 || l.Incomplete == 0 {
		t.Fatalf("writes of %d bytes through a ring of %d lost nothing: %+v", burst, ring, l)
	}
	var incomplete uint64
	for _, c := range calls(t, tr, "") {
		if c.Incomplete() {
			incomplete++
		}
	}
	if incomplete != l.Incomplete {
		t.Errorf("%d calls hold memory flagged lost, the end frame says %d", incomplete, l.Incomplete)
	}
}
