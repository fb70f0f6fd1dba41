package align

import (
	"path"
	"slices"
	"sort"
)

// Candidate describes a process or a thread of one run for matching it
// to one of another run: where it sits in the tree and what it does.
type Candidate struct {
	// Index is its creation order among its siblings (a process among its
	// parent's children, a thread among its process's threads), 1-based.
	Index uint32
	// Parent is the thread that created it, in the numbering of the trace
	// the other candidates are matched against (translate it through the
	// match of the parents); 0 when unknown.
	Parent uint32
	// Execs are the images a process ran (none for a thread).
	Execs []Exec
	// Print is what its (main) thread did first.
	Print Fingerprint
}

// Weights of Score. Fingerprints outweigh creation order, so that two
// workers started in the other order are matched by what they do; the
// image a process executes outweighs both.
const (
	scoreParent   = 2  // created by the matched thread
	scoreIndex    = 3  // same creation order
	scoreExeName  = 4  // same image base name ("python3")
	scoreExePath  = 2  // and the same path
	scoreArgv     = 4  // same argv
	scoreArgvTail = 2  // same argv but argv[0]
	scoreExeOther = -3 // a different image, or an exec on one side only
	scoreName     = 8  // the same thread name; a different one counts against
	scorePrint    = 10 // times the fingerprints' similarity

	// MinScore is the least score at which two candidates are matched:
	// the same creation order alone, with nothing against it, is enough.
	MinScore = scoreIndex
)

// Score says how likely it is that a and b are the same process or
// thread of two runs; see the score* weights.
func Score(a, b Candidate) int {
	s := 0
	if a.Parent != 0 && a.Parent == b.Parent {
		s += scoreParent
	}
	if a.Index == b.Index {
		s += scoreIndex
	}
	s += execScore(a.Execs, b.Execs)
	if a.Print.Name != "" && b.Print.Name != "" {
		if a.Print.Name == b.Print.Name {
			s += scoreName
		} else {
			s -= scoreName
		}
	}
	return s + int(scorePrint*Similarity(a.Print, b.Print)+0.5)
}

func execScore(a, b []Exec) int {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	if len(a) == 0 || len(b) == 0 {
		return scoreExeOther
	}
	s := 0
	for i := range min(len(a), len(b)) {
		ea, eb := a[i], b[i]
		if path.Base(ea.Exe) != path.Base(eb.Exe) {
			s += scoreExeOther
			continue
		}
		s += scoreExeName
		if ea.Exe == eb.Exe {
			s += scoreExePath
		}
		switch {
		case slices.Equal(ea.Argv, eb.Argv):
			s += scoreArgv
		case len(ea.Argv) > 0 && len(eb.Argv) > 0 && slices.Equal(ea.Argv[1:], eb.Argv[1:]):
			s += scoreArgvTail
		}
	}
	return s
}

// Assign pairs candidates of two runs: greedily, best score first, ties
// going to the closer creation order, then to the earlier candidates.
// Pairs scoring below MinScore are never made. It returns index pairs
// into as and bs.
func Assign(as, bs []Candidate) [][2]int {
	type scored struct{ i, j, s, d int }
	var all []scored
	for i := range as {
		for j := range bs {
			s := Score(as[i], bs[j])
			if s < MinScore {
				continue
			}
			d := int(as[i].Index) - int(bs[j].Index)
			if d < 0 {
				d = -d
			}
			all = append(all, scored{i, j, s, d})
		}
	}
	sort.Slice(all, func(x, y int) bool {
		p, q := all[x], all[y]
		if p.s != q.s {
			return p.s > q.s
		}
		if p.d != q.d {
			return p.d < q.d
		}
		if p.i != q.i {
			return p.i < q.i
		}
		return p.j < q.j
	})
	usedA, usedB := make([]bool, len(as)), make([]bool, len(bs))
	var out [][2]int
	for _, p := range all {
		if usedA[p.i] || usedB[p.j] {
			continue
		}
		usedA[p.i], usedB[p.j] = true, true
		out = append(out, [2]int{p.i, p.j})
	}
	sort.Slice(out, func(x, y int) bool { return out[x][0] < out[y][0] })
	return out
}

// Mapping pairs the processes and threads of run A with those of run B.
type Mapping struct {
	Procs   map[uint32]uint32 // A process → B process
	Threads map[uint32]uint32 // A thread → B thread
	procsB  map[uint32]uint32 // B process → A process
	threadB map[uint32]uint32 // B thread → A thread
}

// ThreadA returns the thread of A matched with B's thread b.
func (m *Mapping) ThreadA(b uint32) (uint32, bool) { a, ok := m.threadB[b]; return a, ok }

// ProcA returns the process of A matched with B's process b.
func (m *Mapping) ProcA(b uint32) (uint32, bool) { a, ok := m.procsB[b]; return a, ok }

// Unmatched returns the threads of A and of B that have no match, each in
// ascending order.
func (m *Mapping) Unmatched(a, b *Tree) (onlyA, onlyB []uint32) {
	for _, id := range a.sortedThreads() {
		if _, ok := m.Threads[id]; !ok {
			onlyA = append(onlyA, id)
		}
	}
	for _, id := range b.sortedThreads() {
		if _, ok := m.threadB[id]; !ok {
			onlyB = append(onlyB, id)
		}
	}
	return onlyA, onlyB
}

func (m *Mapping) pairProc(a, b uint32) {
	m.Procs[a], m.procsB[b] = b, a
}

func (m *Mapping) pairThread(a, b uint32) {
	m.Threads[a], m.threadB[b] = b, a
}

// Match pairs the processes and threads of two runs by lineage:
// processes without a traced parent by their order; then, for each
// matched pair, the main threads, the other threads (by creating thread,
// creation order and fingerprint), and the child processes (by creating
// thread, creation order, the images they execute and their main
// thread's fingerprint), down the tree. See Score for the weights. ka
// and kb key the calls of a and b.
func Match(a, b *Tree, ka, kb *Keyer) *Mapping {
	m := &Mapping{Procs: map[uint32]uint32{}, Threads: map[uint32]uint32{}, procsB: map[uint32]uint32{}, threadB: map[uint32]uint32{}}
	prints := map[*Thread]Fingerprint{}
	print := func(k *Keyer, th *Thread) Fingerprint {
		if th == nil {
			return Fingerprint{}
		}
		f, ok := prints[th]
		if !ok {
			f = NewFingerprint(k, th.Calls)
			prints[th] = f
		}
		return f
	}
	procCand := func(t *Tree, k *Keyer, id uint32, index uint32, parent uint32) Candidate {
		p := t.Procs[id]
		return Candidate{Index: index, Parent: parent, Execs: p.Execs, Print: print(k, t.Threads[p.Main])}
	}
	// parentInA translates a B thread into A's numbering; 0 when unmatched.
	parentInA := func(bThread uint32) uint32 {
		x, _ := m.ThreadA(bThread)
		return x
	}

	var queue [][2]uint32
	matchProcs := func(as, bs []uint32, rootLevel bool) {
		ca := make([]Candidate, len(as))
		for i, id := range as {
			idx, parent := a.Procs[id].Index, a.Procs[id].ParentThread
			if rootLevel {
				idx, parent = uint32(i+1), 0
			}
			ca[i] = procCand(a, ka, id, idx, parent)
		}
		cb := make([]Candidate, len(bs))
		for j, id := range bs {
			idx, parent := b.Procs[id].Index, parentInA(b.Procs[id].ParentThread)
			if rootLevel {
				idx, parent = uint32(j+1), 0
			}
			cb[j] = procCand(b, kb, id, idx, parent)
		}
		for _, p := range Assign(ca, cb) {
			m.pairProc(as[p[0]], bs[p[1]])
			queue = append(queue, [2]uint32{as[p[0]], bs[p[1]]})
		}
	}
	matchProcs(a.Roots, b.Roots, true)
	for len(queue) > 0 {
		pa, pb := a.Procs[queue[0][0]], b.Procs[queue[0][1]]
		queue = queue[1:]
		m.matchThreads(a, b, pa, pb, print, ka, kb)
		matchProcs(pa.Children, pb.Children, false)
	}
	return m
}

// matchThreads pairs the threads of two matched processes: main with
// main, the others by Assign.
func (m *Mapping) matchThreads(a, b *Tree, pa, pb *Proc, print func(*Keyer, *Thread) Fingerprint, ka, kb *Keyer) {
	if pa.Main != 0 && pb.Main != 0 {
		m.pairThread(pa.Main, pb.Main)
	}
	var as, bs []uint32
	var ca, cb []Candidate
	for _, id := range pa.Threads {
		if id == pa.Main {
			continue
		}
		th := a.Threads[id]
		as = append(as, id)
		ca = append(ca, Candidate{Index: th.Index, Parent: th.ParentThread, Print: print(ka, th)})
	}
	for _, id := range pb.Threads {
		if id == pb.Main {
			continue
		}
		th := b.Threads[id]
		parent, _ := m.ThreadA(th.ParentThread)
		bs = append(bs, id)
		cb = append(cb, Candidate{Index: th.Index, Parent: parent, Print: print(kb, th)})
	}
	for _, p := range Assign(ca, cb) {
		m.pairThread(as[p[0]], bs[p[1]])
	}
}
