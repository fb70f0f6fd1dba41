package replay

import (
	"testing"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/trace"
)

// TestLiveCalls: a call answered as recorded is held as a bit and given
// back as the recorded call, one answered otherwise as the live call; a
// later call matched with the same recorded call (a retry) replaces the
// earlier; Map has every call that ran, with the same answers as Get.
// The trace's seqs start far from 1 (a trace cut from a longer
// recording): the bits are per call of the graph, not per seq.
func TestLiveCalls(t *testing.T) {
	b := tracetest.New(t)
	var recs []*trace.Call
	for i := range 200 { // past a word of bits
		c := b.Call("", 1, 1, "getpid", int64(100+i), nil)
		c.Seq += 1 << 40
		recs = append(recs, c)
	}
	g, err := depgraph.Build(b.Table, &trace.Header{Arch: "amd64"}, b.Events)
	if err != nil {
		t.Fatal(err)
	}
	l := newLiveCalls(g)
	if l.Len() != 0 || len(l.Map()) != 0 {
		t.Fatalf("empty: Len %d, Map %d", l.Len(), len(l.Map()))
	}
	other := func(rec *trace.Call) *trace.Call { c := *rec; c.Ret++; return &c }
	want := map[uint64]*trace.Call{}
	for i, rec := range recs {
		switch i % 3 {
		case 0: // answered as recorded
			l.set(rec, rec)
			want[rec.Seq] = rec
		case 1: // answered otherwise
			c := other(rec)
			l.set(rec, c)
			want[rec.Seq] = c
		}
	}
	// Retries: as recorded after otherwise, and otherwise after as recorded.
	l.set(recs[1], recs[1])
	want[recs[1].Seq] = recs[1]
	c := other(recs[129])
	l.set(recs[129], c)
	want[recs[129].Seq] = c
	if l.Len() != len(want) {
		t.Errorf("Len %d, want %d", l.Len(), len(want))
	}
	if len(l.same) != 4 {
		t.Errorf("%d words of bits for 200 calls, want 4", len(l.same))
	}
	for _, rec := range recs {
		got, ok := l.Get(rec.Seq)
		if w, ran := want[rec.Seq]; got != w || ok != ran {
			t.Errorf("Get(%d) = %p, %v; want %p, %v", rec.Seq, got, ok, w, ran)
		}
	}
	m := l.Map()
	if len(m) != len(want) {
		t.Errorf("Map has %d calls, want %d", len(m), len(want))
	}
	for seq, w := range want {
		if m[seq] != w {
			t.Errorf("Map[%d] = %p, want %p", seq, m[seq], w)
		}
	}
	var none *LiveCalls
	if _, ok := none.Get(1); ok || none.Len() != 0 || none.Map() != nil {
		t.Error("a nil LiveCalls is not empty")
	}
}
