package depgraph

import "testing"

// TestSeqList: seqs read back and are found as added, held as offsets
// while they fit in 32 bits and whole once one does not.
func TestSeqList(t *testing.T) {
	for _, seqs := range [][]uint64{
		{5, 6, 7, 9, 12, 1 << 20},
		{3, 4, 1<<32 + 2, 1<<32 + 3, 1 << 40},
	} {
		var s seqList
		s.grow(2)
		for _, q := range seqs {
			s.add(q)
		}
		s.trim()
		if s.len() != len(seqs) {
			t.Fatalf("%v: len %d", seqs, s.len())
		}
		for i, q := range seqs {
			if s.at(i) != q {
				t.Errorf("%v: at(%d) = %d, want %d", seqs, i, s.at(i), q)
			}
			if p, ok := s.search(q); !ok || p != i {
				t.Errorf("%v: search(%d) = %d, %v; want %d", seqs, q, p, ok, i)
			}
			if _, ok := s.search(q + 1); ok && (i+1 >= len(seqs) || seqs[i+1] != q+1) {
				t.Errorf("%v: search(%d) found a seq not added", seqs, q+1)
			}
		}
		if _, ok := s.search(1); ok {
			t.Errorf("%v: search(1) found a seq not added", seqs)
		}
	}
	if (&seqList{}).len() != 0 {
		t.Error("an empty list has seqs")
	}
}
