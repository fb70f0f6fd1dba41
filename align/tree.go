package align

import (
	"sort"
	"strconv"

	"github.com/envbisect/envbisect/trace"
)

// Tree is the process and thread structure of one trace, with each
// thread's calls in order. It is built from the event stream alone.
type Tree struct {
	Procs   map[uint32]*Proc   // by logical process number
	Threads map[uint32]*Thread // by logical thread number (unique in a trace)
	Roots   []uint32           // processes without a traced parent, in order of appearance
	tids    map[int32]uint32   // kernel tid (and pid) → logical thread
}

// Proc is one logical process.
type Proc struct {
	ID           uint32
	Parent       uint32 // 0: no traced parent
	ParentThread uint32 // the thread that created it
	Index        uint32 // 1-based among the parent's children
	PID          int32
	Main         uint32   // its main thread (the one that survives an exec)
	Threads      []uint32 // every thread, main first, then in creation order
	Children     []uint32 // child processes in creation order
	Execs        []Exec   // the images it ran, in order
	Exit         *trace.ProcEvent
}

// Exec is one image a process ran.
type Exec struct {
	Exe  string
	Argv []string
}

// Thread is one logical thread and its calls.
type Thread struct {
	ID           uint32
	Proc         uint32
	ParentThread uint32 // 0 for a process's first thread
	Index        uint32 // 1-based among its process's threads
	TID          int32
	Calls        []*trace.Call
}

// NewTree builds the tree of a trace's events. Calls of threads or
// processes no event announced (a trace cut short, an attached process)
// get entries of their own, so every call belongs to a thread.
func NewTree(events []trace.Event) *Tree {
	t := &Tree{Procs: map[uint32]*Proc{}, Threads: map[uint32]*Thread{}, tids: map[int32]uint32{}}
	for _, ev := range events {
		switch {
		case ev.Call != nil:
			c := ev.Call
			th := t.thread(c.Proc, c.Thread, c.TID)
			th.Calls = append(th.Calls, c)
		case ev.Proc != nil:
			t.procEvent(ev.Proc)
		}
	}
	for _, p := range t.Procs {
		sort.SliceStable(p.Children, func(i, j int) bool {
			return t.Procs[p.Children[i]].Index < t.Procs[p.Children[j]].Index
		})
	}
	return t
}

func (t *Tree) procEvent(e *trace.ProcEvent) {
	switch e.Kind {
	case trace.Spawn:
		p := t.proc(e.Proc)
		p.Parent, p.ParentThread, p.Index, p.PID = e.Parent, e.ParentThread, e.Index, e.PID
		if e.Parent == 0 || t.Procs[e.Parent] == nil {
			p.Parent = 0
		} else {
			pp := t.Procs[e.Parent]
			pp.Children = append(pp.Children, p.ID)
			t.dropRoot(p.ID)
		}
		th := t.thread(e.Proc, e.Thread, e.TID)
		th.Index = 1
		p.Main = e.Thread
	case trace.SpawnThread:
		th := t.thread(e.Proc, e.Thread, e.TID)
		th.ParentThread, th.Index = e.ParentThread, e.Index
	case trace.Exec:
		p := t.proc(e.Proc)
		p.Execs = append(p.Execs, Exec{Exe: e.Exe, Argv: e.Argv})
		t.thread(e.Proc, e.Thread, e.TID)
		p.Main = e.Thread // exec leaves one thread, the process's main one
	case trace.Exit:
		p := t.proc(e.Proc)
		ev := *e
		p.Exit = &ev
	}
	if e.PID != 0 {
		if p := t.Procs[e.Proc]; p != nil && p.PID == 0 {
			p.PID = e.PID
		}
	}
}

func (t *Tree) proc(id uint32) *Proc {
	p := t.Procs[id]
	if p == nil {
		p = &Proc{ID: id}
		t.Procs[id] = p
		t.Roots = append(t.Roots, id)
	}
	return p
}

func (t *Tree) dropRoot(id uint32) {
	for i, r := range t.Roots {
		if r == id {
			t.Roots = append(t.Roots[:i], t.Roots[i+1:]...)
			return
		}
	}
}

func (t *Tree) thread(proc, id uint32, tid int32) *Thread {
	th := t.Threads[id]
	if th == nil {
		th = &Thread{ID: id, Proc: proc, TID: tid}
		t.Threads[id] = th
		p := t.proc(proc)
		p.Threads = append(p.Threads, id)
		if p.Main == 0 {
			p.Main = id
		}
	}
	if tid != 0 {
		if th.TID == 0 {
			th.TID = tid
		}
		if _, ok := t.tids[tid]; !ok {
			t.tids[tid] = id
		}
	}
	return th
}

// ThreadOfTID returns the logical thread that had kernel thread id tid
// (a process's pid is its main thread's tid). The first thread to have a
// tid keeps it when the kernel reused the number.
func (t *Tree) ThreadOfTID(tid int64) (uint32, bool) {
	if tid <= 0 || tid > 1<<31-1 {
		return 0, false
	}
	id, ok := t.tids[int32(tid)]
	return id, ok
}

// Label names a thread as show prints it: [P] for the main thread of
// process P, [P:T] for another thread.
func (t *Tree) Label(thread uint32) string {
	th := t.Threads[thread]
	if th == nil {
		return "[?:" + strconv.FormatUint(uint64(thread), 10) + "]"
	}
	p := strconv.FormatUint(uint64(th.Proc), 10)
	if pr := t.Procs[th.Proc]; pr != nil && pr.Main == thread {
		return "[" + p + "]"
	}
	return "[" + p + ":" + strconv.FormatUint(uint64(thread), 10) + "]"
}

// Exe returns the last image process proc ran, or "".
func (t *Tree) Exe(proc uint32) string {
	if p := t.Procs[proc]; p != nil && len(p.Execs) > 0 {
		return p.Execs[len(p.Execs)-1].Exe
	}
	return ""
}

// CallCount returns the number of calls of a process's threads.
func (t *Tree) CallCount(proc uint32) int {
	n := 0
	if p := t.Procs[proc]; p != nil {
		for _, th := range p.Threads {
			n += len(t.Threads[th].Calls)
		}
	}
	return n
}

// sortedThreads returns the logical thread numbers in ascending order.
func (t *Tree) sortedThreads() []uint32 {
	out := make([]uint32, 0, len(t.Threads))
	for id := range t.Threads {
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
