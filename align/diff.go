package align

import (
	"slices"

	"github.com/envbisect/envbisect/trace"
)

// Run is one run's trace as Diff reads it.
type Run struct {
	Header *trace.Header
	Start  []trace.StartEvent
	Events []trace.Event
}

// Result is the difference of two runs.
type Result struct {
	A, B    *Tree
	Mapping *Mapping
	// Threads are the matched thread pairs, in A's thread order, each with
	// its aligned calls.
	Threads []ThreadDiff
	// OnlyA and OnlyB are the threads without a match, in thread order.
	OnlyA, OnlyB []uint32
	Exits        []ExitDiff  // matched processes that ended differently
	Start        []StartDiff // start events that differ

	Compared        int // aligned call pairs
	Differ          int // aligned pairs that differ
	OnlyACalls      int // calls of matched threads found in A only
	OnlyBCalls      int
	UnmatchedCallsA int // calls of threads without a match
	UnmatchedCallsB int
	DifferInResults int // of Differ, the pairs whose results differ (return value or data written); the rest differ only in data sent
}

// ThreadDiff is the alignment of one matched thread pair.
type ThreadDiff struct {
	A, B   uint32        // logical threads
	CallsA []*trace.Call // the thread's calls in A
	CallsB []*trace.Call
	Steps  []Step
	Diffs  map[int]*CallDiff // by index into Steps, for the Pair steps that differ
}

// ExitDiff is a matched process pair whose exits differ.
type ExitDiff struct {
	ProcA, ProcB uint32
	A, B         *trace.ProcEvent // nil: no exit recorded
}

// Differs reports whether the runs differ in anything Diff compares.
func (r *Result) Differs() bool {
	return r.Differ > 0 || r.OnlyACalls > 0 || r.OnlyBCalls > 0 || len(r.OnlyA) > 0 || len(r.OnlyB) > 0 ||
		len(r.Exits) > 0 || len(r.Start) > 0
}

// Diff compares two runs: it matches their processes and threads (Match),
// aligns the calls of each matched thread pair (Align), compares each
// aligned pair (Comparer), the exits of matched processes, and the start
// events (CompareStart). It is Prepare, then ComparePair for every pair.
func Diff(rows Rows, a, b Run, o Options) *Result {
	r, cmp := Prepare(rows, a, b, o)
	for ti := range r.Threads {
		td := &r.Threads[ti]
		for i, s := range td.Steps {
			if s.Kind == Pair {
				r.ComparePair(cmp, ti, i, td.CallsA[s.I], td.CallsB[s.J])
			}
		}
	}
	return r
}

// ComparePair compares the calls x (of run A) and y (of run B) of the
// Pair step i of r.Threads[ti], and records how they differ. x and y are
// the step's calls, or their whole versions where the runs' events hold
// calls without their buffers (Prepare reads no buffer).
func (r *Result) ComparePair(cmp *Comparer, ti, i int, x, y *trace.Call) {
	td := &r.Threads[ti]
	if d := cmp.Compare(x, y); d != nil {
		td.Diffs[i] = d
		r.Differ++
		if d.Ret || len(d.Data) > 0 {
			r.DifferInResults++
		}
	}
}

// Prepare is Diff but for comparing the aligned pairs: the Result has
// every step, the counts of pairs and of one-sided calls, the exits and
// the start events, and no call difference yet; ComparePair with the
// Comparer adds them. Prepare reads no call's buffers, so the runs'
// events can hold calls without them, to be compared with ComparePair
// once read whole.
func Prepare(rows Rows, a, b Run, o Options) (*Result, *Comparer) {
	arch, cwdA, cwdB := "", a.cwd(), b.cwd()
	if a.Header != nil {
		arch = a.Header.Arch
	}
	ka, kb := NewKeyer(rows, "", ""), NewKeyer(rows, cwdB, cwdA)
	in := newInterner()
	r := &Result{A: NewTree(a.Events), B: NewTree(b.Events)}
	r.Mapping = Match(r.A, r.B, ka, kb)
	cmp := NewComparer(rows, arch, r.A, r.B, r.Mapping, ka, kb, o)

	for _, ta := range r.A.sortedThreads() {
		tb, ok := r.Mapping.Threads[ta]
		if !ok {
			continue
		}
		td := ThreadDiff{A: ta, B: tb, CallsA: r.A.Threads[ta].Calls, CallsB: r.B.Threads[tb].Calls, Diffs: map[int]*CallDiff{}}
		td.Steps = Align(in.keys(td.CallsA, ka.ResultKey), in.keys(td.CallsB, kb.ResultKey), o.Window)
		td.Steps = PairGaps(td.Steps, in.keys(td.CallsA, ka.Key), in.keys(td.CallsB, kb.Key))
		for _, s := range td.Steps {
			switch s.Kind {
			case Pair:
				r.Compared++
			case OnlyA:
				r.OnlyACalls++
			case OnlyB:
				r.OnlyBCalls++
			}
		}
		r.Threads = append(r.Threads, td)
	}
	r.OnlyA, r.OnlyB = r.Mapping.Unmatched(r.A, r.B)
	for _, t := range r.OnlyA {
		r.UnmatchedCallsA += len(r.A.Threads[t].Calls)
	}
	for _, t := range r.OnlyB {
		r.UnmatchedCallsB += len(r.B.Threads[t].Calls)
	}

	for _, pa := range sortedProcs(r.A) {
		pb, ok := r.Mapping.Procs[pa]
		if !ok {
			continue
		}
		ea, eb := r.A.Procs[pa].Exit, r.B.Procs[pb].Exit
		switch {
		case ea == nil && eb == nil:
		case ea == nil || eb == nil || ea.Status != eb.Status || ea.Signal != eb.Signal:
			r.Exits = append(r.Exits, ExitDiff{ProcA: pa, ProcB: pb, A: ea, B: eb})
		}
	}
	r.Start = CompareStart(a.Start, b.Start, o)
	return r, cmp
}

func sortedProcs(t *Tree) []uint32 {
	out := make([]uint32, 0, len(t.Procs))
	for id := range t.Procs {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// cwd is the working directory the run started in as the kernel names it:
// its cwd start event (from /proc/PID/cwd), as the paths of its calls are;
// the header's for a trace without one. The header's is record's
// os.Getwd, $PWD's logical path when the shell came there through a
// symbolic link: two runs recorded from the same link to two releases
// would key their calls under one prefix that neither's paths have.
func (r Run) cwd() string {
	for _, e := range r.Start {
		if e.Kind == trace.StartCwd {
			return e.Value
		}
	}
	if r.Header != nil {
		return r.Header.Cwd
	}
	return ""
}
