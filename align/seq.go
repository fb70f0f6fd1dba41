package align

// DefaultWindow is how far, in calls of one thread, a resynchronisation
// looks ahead on each side: room for several extra iterations of a
// polling loop of a few calls each.
const DefaultWindow = 64

// anchorLen is how many calls must match in a row, from a resynchronisation
// point on, for it to be taken (fewer where a sequence ends). One matching
// call alone (a close, a read of the same pipe) is too often a coincidence.
const anchorLen = 3

// StepKind says what an alignment step pairs.
type StepKind uint8

const (
	Pair  StepKind = iota + 1 // A[I] and B[J] are the same call of the two runs
	OnlyA                     // A[I] has no counterpart in B
	OnlyB                     // B[J] has no counterpart in A
)

// Step is one step of an alignment. I is -1 for OnlyB, J is -1 for OnlyA.
type Step struct {
	Kind StepKind
	I, J int
}

// Align aligns two key sequences, the calls of one thread in two runs.
//
// It walks both in step while the keys are equal. At a mismatch it
// resynchronises: it looks for the nearest point (da, db), da calls ahead
// in A and db in B, both at most window (DefaultWindow when 0), where
// anchorLen keys match in a row, nearest meaning the fewest calls skipped
// (da+db), and reports the skipped calls as OnlyA and OnlyB. This is the
// same bounded resynchronisation that locate applies to live calls (see
// Stream), so what diff shows as aligned is what locate would align.
//
// Where no such point lies within the window, locate would give up on the
// thread; Align, which has both whole sequences, searches on without the
// bound (the nearest anchored point anywhere ahead, found through an index
// of B's keys), and only when there is none reports the rest of both
// sequences as one-sided.
//
// Within a run of skipped calls the OnlyA steps come before the OnlyB
// steps, as in diff(1).
func Align(a, b []Key, window int) []Step {
	if window <= 0 {
		window = DefaultWindow
	}
	steps := make([]Step, 0, max(len(a), len(b)))
	var far *keyIndex
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] == b[j] {
			steps = append(steps, Step{Pair, i, j})
			i, j = i+1, j+1
			continue
		}
		da, db, ok := resync(a, b, i, j, window)
		if !ok {
			if far == nil {
				far = newKeyIndex(b)
			}
			da, db, ok = far.resync(a, b, i, j)
		}
		if !ok {
			da, db = len(a)-i, len(b)-j
		}
		for k := 0; k < da; k++ {
			steps = append(steps, Step{OnlyA, i + k, -1})
		}
		for k := 0; k < db; k++ {
			steps = append(steps, Step{OnlyB, -1, j + k})
		}
		i, j = i+da, j+db
	}
	for ; i < len(a); i++ {
		steps = append(steps, Step{OnlyA, i, -1})
	}
	for ; j < len(b); j++ {
		steps = append(steps, Step{OnlyB, -1, j})
	}
	return steps
}

// resync finds the nearest anchored matching point within the window
// after a mismatch at a[i], b[j]: the smallest da+db, then the smaller
// da, with da and db at most window.
func resync(a, b []Key, i, j, window int) (da, db int, ok bool) {
	ra, rb := min(window, len(a)-i-1), min(window, len(b)-j-1)
	for d := 1; d <= ra+rb; d++ {
		for x := max(0, d-rb); x <= min(d, ra); x++ {
			if anchored(a, b, i+x, j+d-x) {
				return x, d - x, true
			}
		}
	}
	return 0, 0, false
}

// anchored reports whether anchorLen keys match in a row from a[i], b[j],
// or fewer where either sequence ends.
func anchored(a, b []Key, i, j int) bool {
	if i >= len(a) || j >= len(b) {
		return false
	}
	for k := 0; k < anchorLen && i+k < len(a) && j+k < len(b); k++ {
		if a[i+k] != b[j+k] {
			return false
		}
	}
	return true
}

// keyIndex lists, for every key of a sequence, the positions where it
// occurs, in ascending order.
type keyIndex struct {
	pos map[Key][]int
}

func newKeyIndex(b []Key) *keyIndex {
	x := &keyIndex{pos: make(map[Key][]int)}
	for j, k := range b {
		x.pos[k] = append(x.pos[k], j)
	}
	return x
}

// resync finds the nearest anchored matching point anywhere after a
// mismatch at a[i], b[j] (smallest da+db).
func (x *keyIndex) resync(a, b []Key, i, j int) (da, db int, ok bool) {
	best := -1
	for d := 0; i+d < len(a); d++ {
		if best >= 0 && d >= best {
			break
		}
		ps := x.pos[a[i+d]]
		// The first position at or after j.
		lo, hi := 0, len(ps)
		for lo < hi {
			mid := (lo + hi) / 2
			if ps[mid] < j {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		for _, p := range ps[lo:] {
			e := p - j
			if best >= 0 && d+e >= best {
				break
			}
			if anchored(a, b, i+d, p) {
				best, da, db = d+e, d, e
				break
			}
		}
	}
	return da, db, best >= 0
}

// PairGaps refines an alignment made with result keys: within each run
// of one-sided steps it pairs calls whose plain keys a and b agree (by
// their longest common subsequence, in order), so that an open that
// failed in one run and succeeded in the other is reported as one call
// with two results rather than as two unrelated calls; then it pairs the
// calls of the gap left over whose keys agree although their order does
// not (racing calls). Such a pair stands at A's position: J is then not
// in ascending order along the steps.
func PairGaps(steps []Step, a, b []Key) []Step {
	out := make([]Step, 0, len(steps))
	for i := 0; i < len(steps); {
		if steps[i].Kind == Pair {
			out = append(out, steps[i])
			i++
			continue
		}
		var as, bs []int
		j := i
		for ; j < len(steps) && steps[j].Kind != Pair; j++ {
			if steps[j].Kind == OnlyA {
				as = append(as, steps[j].I)
			} else {
				bs = append(bs, steps[j].J)
			}
		}
		out = append(out, pairGap(as, bs, a, b)...)
		i = j
	}
	return out
}

// maxLCSCells bounds the work of pairGap's alignment of a gap (the
// product of its two sides' lengths); beyond it the gap's calls stay
// one-sided.
const maxLCSCells = 1 << 18

// pairGap aligns one gap's calls by plain keys.
func pairGap(as, bs []int, a, b []Key) []Step {
	var out []Step
	flush := func(xs, ys []int) {
		for _, x := range xs {
			out = append(out, Step{OnlyA, x, -1})
		}
		for _, y := range ys {
			out = append(out, Step{OnlyB, -1, y})
		}
	}
	if len(as) == 0 || len(bs) == 0 || len(as)*len(bs) > maxLCSCells {
		flush(as, bs)
		return out
	}
	// n[x][y]: LCS length of as[x:], bs[y:] by key.
	n := make([][]int32, len(as)+1)
	for x := range n {
		n[x] = make([]int32, len(bs)+1)
	}
	for x := len(as) - 1; x >= 0; x-- {
		for y := len(bs) - 1; y >= 0; y-- {
			if a[as[x]] == b[bs[y]] {
				n[x][y] = n[x+1][y+1] + 1
			} else {
				n[x][y] = max(n[x+1][y], n[x][y+1])
			}
		}
	}
	x, y, fx, fy := 0, 0, 0, 0 // fx, fy: start of the one-sided calls not yet flushed
	for x < len(as) && y < len(bs) {
		switch {
		case a[as[x]] == b[bs[y]]:
			flush(as[fx:x], bs[fy:y])
			out = append(out, Step{Pair, as[x], bs[y]})
			x, y = x+1, y+1
			fx, fy = x, y
		case n[x+1][y] >= n[x][y+1]:
			x++
		default:
			y++
		}
	}
	flush(as[fx:], bs[fy:])
	return pairMoved(out, a, b)
}

// pairMoved pairs the one-sided calls of a gap that the in-order pairing
// left over but whose keys agree: the same call made at another point,
// such as a close of a pipe and a wait4 for a child that race each other.
// The B call's step is dropped and the A call's becomes the pair, so the
// pair stands at A's position.
func pairMoved(steps []Step, a, b []Key) []Step {
	byKey := map[Key][]int{} // key → indices into steps of unpaired B calls
	for i, s := range steps {
		if s.Kind == OnlyB {
			byKey[b[s.J]] = append(byKey[b[s.J]], i)
		}
	}
	if len(byKey) == 0 {
		return steps
	}
	drop := map[int]bool{}
	for i, s := range steps {
		if s.Kind != OnlyA {
			continue
		}
		if js := byKey[a[s.I]]; len(js) > 0 {
			steps[i] = Step{Pair, s.I, steps[js[0]].J}
			drop[js[0]] = true
			byKey[a[s.I]] = js[1:]
		}
	}
	out := steps[:0]
	for i, s := range steps {
		if !drop[i] {
			out = append(out, s)
		}
	}
	return out
}
