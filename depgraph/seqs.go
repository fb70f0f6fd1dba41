package depgraph

import "slices"

// seqList is the seqs of a graph's calls, increasing: the index by
// which calls are found (pos). A trace's seqs span less than 2^32 but
// for the longest traces, so each is held as its offset from the first
// (4 bytes a call, a million for cloop's trace); past that span the list
// holds 8-byte seqs.
type seqList struct {
	first uint64
	off   []uint32 // seq - first, while every offset fits
	wide  []uint64 // every seq, once one did not fit (off is then nil)
}

// len returns the number of seqs.
func (s *seqList) len() int {
	if s.wide != nil {
		return len(s.wide)
	}
	return len(s.off)
}

// at returns the i-th seq.
func (s *seqList) at(i int) uint64 {
	if s.wide != nil {
		return s.wide[i]
	}
	return s.first + uint64(s.off[i])
}

// grow makes room for n more seqs.
func (s *seqList) grow(n int) {
	if s.wide != nil {
		s.wide = slices.Grow(s.wide, n)
	} else {
		s.off = slices.Grow(s.off, n)
	}
}

// add appends seq, which is above every seq before it.
func (s *seqList) add(seq uint64) {
	switch {
	case s.wide != nil:
		s.wide = append(s.wide, seq)
		return
	case len(s.off) == 0:
		s.first = seq
	case seq-s.first > 1<<32-1:
		wide := make([]uint64, len(s.off), cap(s.off))
		for i, o := range s.off {
			wide[i] = s.first + uint64(o)
		}
		s.off, s.wide = nil, append(wide, seq)
		return
	}
	s.off = append(s.off, uint32(seq-s.first))
}

// trim lets go of the room left by growing the list (trimmed).
func (s *seqList) trim() {
	s.off, s.wide = trimmed(s.off), trimmed(s.wide)
}

// search returns the position of seq, and whether it is there. Seqs
// usually go up by one: the position is then found at once, else by
// binary search.
func (s *seqList) search(seq uint64) (int, bool) {
	n := s.len()
	if n == 0 || seq < s.at(0) {
		return 0, false
	}
	if d := seq - s.at(0); d < uint64(n) && s.at(int(d)) == seq {
		return int(d), true
	}
	if s.wide != nil {
		return slices.BinarySearch(s.wide, seq)
	}
	if seq-s.first > 1<<32-1 {
		return n, false
	}
	return slices.BinarySearch(s.off, uint32(seq-s.first))
}
