package replay

import (
	"math/bits"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/trace"
)

// LiveCalls are the live results of the recorded calls that ran in a
// run, by recorded seq (Result.Live). A call answered as recorded (kept
// returns the recorded call) is a bit; the others are held in a map. A
// run that executes a long loop as recorded (cloop's million calls) held
// a map entry per call, 46 MB; it holds a bit per call now, and the map
// bisect reads is made only for the runs it reads (Map).
type LiveCalls struct {
	g     *depgraph.Graph // answers a seq with its recorded call
	same  []uint64        // bit Graph.Index(seq): the call ran and answered as recorded
	other map[uint64]*trace.Call
}

// newLiveCalls returns an empty set of live calls of recording g's
// calls.
func newLiveCalls(g *depgraph.Graph) *LiveCalls {
	return &LiveCalls{g: g, other: map[uint64]*trace.Call{}}
}

// set keeps live, what kept returned for recorded call rec: rec itself
// (answered as recorded) or the live call. A later call matched with the
// same recorded call (a retry after EAGAIN) replaces it.
func (l *LiveCalls) set(rec, live *trace.Call) {
	i, ok := l.g.Index(rec.Seq)
	if !ok { // not a call of the graph: held as it is
		l.other[rec.Seq] = live
		return
	}
	w, b := i/64, uint(i%64)
	if live == rec {
		if l.same == nil {
			l.same = make([]uint64, (l.g.NumCalls()+63)/64)
		}
		l.same[w] |= 1 << b
		delete(l.other, rec.Seq)
		return
	}
	if l.same != nil {
		l.same[w] &^= 1 << b
	}
	l.other[rec.Seq] = live
}

// Len returns how many recorded calls ran.
func (l *LiveCalls) Len() int {
	if l == nil {
		return 0
	}
	n := len(l.other)
	for _, w := range l.same {
		n += bits.OnesCount64(w)
	}
	return n
}

// Get returns the live result of recorded call seq: the recorded call
// itself when it answered as recorded; false when it did not run.
func (l *LiveCalls) Get(seq uint64) (*trace.Call, bool) {
	if l == nil {
		return nil, false
	}
	if c, ok := l.other[seq]; ok {
		return c, true
	}
	if i, ok := l.g.Index(seq); ok && l.same != nil && l.same[i/64]&(1<<uint(i%64)) != 0 {
		return l.g.Call(seq)
	}
	return nil, false
}

// Map returns the live calls as a map by recorded seq, those answered as
// recorded as their recorded call (bisect.Outcome.Live). Nil for nil.
func (l *LiveCalls) Map() map[uint64]*trace.Call {
	if l == nil {
		return nil
	}
	out := make(map[uint64]*trace.Call, l.Len())
	for w, word := range l.same {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			word &^= 1 << b
			seq := l.g.SeqAt(w*64 + b)
			if c, ok := l.g.Call(seq); ok {
				out[seq] = c
			}
		}
	}
	for seq, c := range l.other {
		out[seq] = c
	}
	return out
}
