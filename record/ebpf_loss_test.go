package record

import (
	"path/filepath"
	"testing"

	"github.com/envbisect/envbisect/bisect"
	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
)

// TestEBPFTinyRingLoses records with a one-page ring buffer a command that
// moves a few MiB: the ring overflows, and the losses are counted in the
// end frame, placed on the calls (a gap, memory flagged lost), and such
// calls are never replayed: the plan executes them and locate's
// candidates leave them out.
func TestEBPFTinyRingLoses(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF, testutil.Binary("dd"))
	out := filepath.Join(t.TempDir(), "zeros")
	_, tr := recordIn(t, Options{Backend: trace.BackendEBPF, RingSize: 4096},
		"dd", "if=/dev/zero", "of="+out, "bs=65536", "count=64")
	l := tr.End.Lost
	if !l.Any() || l.Chunks == 0 {
		t.Fatalf("a 4 KiB ring lost nothing moving 4 MiB: %+v", l)
	}
	if tr.Header.RingSize != 4096 {
		t.Errorf("header ring size %d, want 4096", tr.Header.RingSize)
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
