package replay

import (
	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// liveProc and liveThread are the processes and threads of a live run,
// as the tracer's events announce them, and the recorded ones they were
// matched with.
type liveProc struct {
	id, parent uint32
	index      uint32
	rec        uint32 // matched recorded process, 0: none (yet)
	bound      bool   // the match was decided
	main       uint32
}

type liveThread struct {
	id, proc uint32
	index    uint32
	rec      *recThread // matched recorded thread, nil: none
	bound    bool
	stream   *align.Stream
	extras   int // extra calls reported so far
	diverged bool
}

// binder matches live processes and threads to recorded ones. A live
// process or thread is matched when it makes its first call, not when it
// is created: among the recorded children of the matched parent (or the
// recorded threads of the matched process) not matched yet, the one whose
// first call has the live first call's key, preferring the one created
// at the same position; else the one at the same position. So two
// workers started in the other order than recorded are still told apart
// by what they do first (BRIEF: robust thread identity).
type binder struct {
	rec     *Recording
	procs   map[uint32]*liveProc
	threads map[uint32]*liveThread
	taken   map[uint32]bool // recorded processes and threads matched (ids do not overlap: threads and processes are numbered apart)
	takenT  map[uint32]bool
	window  int
}

func newBinder(rec *Recording, window int) *binder {
	return &binder{rec: rec, procs: make(map[uint32]*liveProc), threads: make(map[uint32]*liveThread),
		taken: make(map[uint32]bool), takenT: make(map[uint32]bool), window: window}
}

// procEvent notes a live process or thread being created.
func (b *binder) procEvent(e *trace.ProcEvent) {
	switch e.Kind {
	case trace.Spawn:
		p := &liveProc{id: e.Proc, parent: e.Parent, index: e.Index, main: e.Thread}
		if _, ok := b.procs[e.Parent]; !ok || e.Parent == 0 {
			if len(b.procs) == 0 {
				// The command itself.
				p.rec, p.bound = b.rec.root, true
				b.taken[b.rec.root] = true
			}
		}
		b.procs[e.Proc] = p
		b.threads[e.Thread] = &liveThread{id: e.Thread, proc: e.Proc, index: 1}
	case trace.SpawnThread:
		b.threads[e.Thread] = &liveThread{id: e.Thread, proc: e.Proc, index: e.Index}
	}
}

// thread returns the live thread making call c, matched if it can be.
func (b *binder) thread(c *trace.Call, key align.Key) *liveThread {
	lt := b.threads[c.Thread]
	if lt == nil {
		lt = &liveThread{id: c.Thread, proc: c.Proc}
		b.threads[c.Thread] = lt
	}
	if lt.bound {
		return lt
	}
	lt.bound = true
	p := b.procs[lt.proc]
	if p == nil {
		return lt
	}
	var rt *recThread
	if lt.id == p.main {
		rp := b.bindProc(p, key)
		if rp == nil {
			return lt
		}
		rt = b.rec.threads[rp.main]
	} else {
		if !p.bound || p.rec == 0 {
			return lt
		}
		rp := b.rec.procs[p.rec]
		rt = b.pickThread(rp.threads, lt.index, key)
	}
	if rt == nil || b.takenT[rt.id] {
		return lt
	}
	b.takenT[rt.id] = true
	lt.rec = rt
	lt.stream = align.NewStream(rt.keys, b.window)
	if p.rec == b.rec.root && lt.id == p.main && len(rt.calls) > 0 &&
		b.rec.Table.ByNr(int(rt.calls[0].Nr)).Effects&systable.ExecsImage != 0 {
		// The command's own exec is the recording's first call; live, it
		// is the helper's, which the tracer does not pass on.
		lt.stream.Feed(rt.keys[0])
	}
	return lt
}

// bindProc matches live process p, whose main thread makes its first
// call with key.
func (b *binder) bindProc(p *liveProc, key align.Key) *recProc {
	if p.bound {
		return b.rec.procs[p.rec]
	}
	p.bound = true
	parent := b.procs[p.parent]
	if parent == nil || parent.rec == 0 {
		return nil
	}
	rparent := b.rec.procs[parent.rec]
	best := uint32(0)
	for _, id := range rparent.children {
		if b.taken[id] {
			continue
		}
		rp := b.rec.procs[id]
		first := b.rec.threads[rp.main]
		matches := first != nil && len(first.keys) > 0 && first.keys[0] == key
		switch {
		case matches && rp.index == p.index:
			best = id
		case matches && (best == 0 || !b.firstIs(best, key)):
			best = id
		case best == 0 && rp.index == p.index:
			best = id
		}
		if best == id && matches && rp.index == p.index {
			break
		}
	}
	if best == 0 {
		return nil
	}
	b.taken[best] = true
	p.rec = best
	return b.rec.procs[best]
}

func (b *binder) firstIs(proc uint32, key align.Key) bool {
	first := b.rec.threads[b.rec.procs[proc].main]
	return first != nil && len(first.keys) > 0 && first.keys[0] == key
}

// pickThread chooses among recorded threads the one a live thread
// created at position index, making its first call with key, matches.
func (b *binder) pickThread(ids []uint32, index uint32, key align.Key) *recThread {
	var byKey, byIndex *recThread
	for _, id := range ids {
		if b.takenT[id] {
			continue
		}
		rt := b.rec.threads[id]
		matches := len(rt.keys) > 0 && rt.keys[0] == key
		if matches && rt.index == index {
			return rt
		}
		if matches && byKey == nil {
			byKey = rt
		}
		if rt.index == index && byIndex == nil {
			byIndex = rt
		}
	}
	if byKey != nil {
		return byKey
	}
	return byIndex
}
