package replay

import (
	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// maxBindCalls bounds how many calls a live thread makes while several
// recorded threads could still be it; then the one created at the same
// position (or the first) is taken.
const maxBindCalls = 32

// liveProc and liveThread are the processes and threads of a live run,
// as the tracer's events announce them, and the recorded ones they were
// matched with.
type liveProc struct {
	id, parent uint32
	index      uint32
	rec        uint32 // matched recorded process, 0: none (yet)
	main       uint32
	// endedItself: the process exited by itself (exit or exit_group),
	// not killed by a signal or still running when the run ended.
	endedItself bool
}

type liveThread struct {
	id, proc uint32
	index    uint32
	rec      *recThread // matched recorded thread, nil: none (yet)
	stream   *align.Stream
	// Until it is matched: the recorded threads it could be, and how
	// many calls it has made (all of which had the same key in each).
	cands    []*recThread
	seen     int
	started  bool // cands were chosen
	extras   int  // extra calls reported so far
	diverged bool
	// afterDivergence counts the live calls it made once diverged.
	afterDivergence int
	reported        bool // reported as unmatched
	// generated: the calls it made before it was matched that created a
	// generated name (align.Keyer.Like), by position, with their live
	// paths: once matched, each is mapped to its recorded name.
	generated map[int]string
}

// unmatched reports whether the thread has been found to match no
// recorded thread.
func (lt *liveThread) unmatched() bool { return lt.rec == nil && lt.started && lt.cands == nil }

// binder matches live processes and threads to recorded ones by what
// they do, not by creation order alone (BRIEF: robust thread identity).
// When a live thread makes its first call, its candidates are the
// recorded threads it could be: for a process's first thread, the first
// threads of the recorded children of its parent's match; for another
// thread, the recorded threads of its process's match; none taken yet.
// Each call keeps the candidates whose call at that position has the
// call's key. The thread is matched once one candidate is left (or, after
// maxBindCalls calls, the one created at the same position); with none
// left it stays unmatched. Until it is matched its calls run for real:
// nothing is replayed into a thread that may be another.
//
// So a shell's extra `sleep` child (one more polling iteration than
// recorded) never takes the recorded place of the next command, and two
// workers started in the other order are told apart by the first file
// each opens.
type binder struct {
	rec     *Recording
	procs   map[uint32]*liveProc
	threads map[uint32]*liveThread
	taken   map[uint32]bool // recorded threads matched
	window  int
}

func newBinder(rec *Recording, window int) *binder {
	return &binder{rec: rec, procs: make(map[uint32]*liveProc), threads: make(map[uint32]*liveThread),
		taken: make(map[uint32]bool), window: window}
}

// procEvent notes a live process or thread being created.
func (b *binder) procEvent(e *trace.ProcEvent) {
	switch e.Kind {
	case trace.Spawn:
		p := &liveProc{id: e.Proc, parent: e.Parent, index: e.Index, main: e.Thread}
		b.procs[e.Proc] = p
		b.threads[e.Thread] = &liveThread{id: e.Thread, proc: e.Proc, index: 1}
	case trace.SpawnThread:
		b.threads[e.Thread] = &liveThread{id: e.Thread, proc: e.Proc, index: e.Index}
	case trace.Exit:
		if p := b.procs[e.Proc]; p != nil {
			p.endedItself = e.Signal == 0
		}
	}
}

// thread returns the live thread making call c, whose key is key, matched
// if it can be. like, when not nil, accepts recorded keys that differ from
// key in a generated name (align.Keyer.Like). It returns fed true when
// matching fed the call to the thread's stream already (the call that
// decided the match).
func (b *binder) thread(c *trace.Call, key align.Key, like func(align.Key) bool) (lt *liveThread, fed align.Fed, ok bool) {
	lt = b.threads[c.Thread]
	if lt == nil {
		lt = &liveThread{id: c.Thread, proc: c.Proc}
		b.threads[c.Thread] = lt
	}
	if lt.rec != nil || (lt.started && lt.cands == nil) {
		return lt, align.Fed{}, false
	}
	if !lt.started {
		lt.started = true
		lt.cands = b.candidates(lt)
	}
	// Keep the candidates whose call at this position has this key.
	kept := lt.cands[:0]
	for _, rt := range lt.cands {
		if !b.taken[rt.id] && lt.seen < rt.keys.Len() && (rt.keys.At(lt.seen) == key || like != nil && like(rt.keys.At(lt.seen))) {
			kept = append(kept, rt)
		}
	}
	if like != nil {
		if lt.generated == nil {
			lt.generated = make(map[int]string)
		}
		lt.generated[lt.seen] = c.Path
	}
	lt.cands = kept
	lt.seen++
	switch {
	case len(kept) == 0:
		lt.cands = nil // unmatched for good
		return lt, align.Fed{}, false
	case len(kept) > 1 && lt.seen < maxBindCalls:
		return lt, align.Fed{}, false
	}
	pick := kept[0]
	for _, rt := range kept {
		if rt.index == lt.index {
			pick = rt
			break
		}
	}
	b.bind(lt, pick)
	// The calls made so far had the recorded keys; the stream resumes
	// after them, and this one is matched to its recorded call.
	for i := range lt.seen - 1 {
		lt.stream.Feed(pick.keys.At(i))
	}
	return lt, lt.stream.FeedLike(key, like), true
}

// bind matches live thread lt with recorded thread rt.
func (b *binder) bind(lt *liveThread, rt *recThread) {
	b.taken[rt.id] = true
	lt.rec, lt.cands = rt, nil
	lt.stream = align.NewStreamOf(rt.keys, b.window)
	if p := b.procs[lt.proc]; p != nil && lt.id == p.main {
		p.rec = rt.proc
	}
}

// candidates returns the recorded threads live thread lt may be.
func (b *binder) candidates(lt *liveThread) []*recThread {
	p := b.procs[lt.proc]
	if p == nil {
		return nil
	}
	var ids []uint32
	switch {
	case lt.id != p.main:
		if rp := b.rec.procs[p.rec]; rp != nil {
			ids = rp.threads
		}
	case p.parent == 0 || b.procs[p.parent] == nil:
		// The command itself.
		if rp := b.rec.procs[b.rec.root]; rp != nil {
			ids = []uint32{rp.main}
		}
	default:
		if rp := b.rec.procs[b.procs[p.parent].rec]; rp != nil {
			for _, child := range rp.children {
				ids = append(ids, b.rec.procs[child].main)
			}
		}
	}
	var out []*recThread
	for _, id := range ids {
		if rt := b.rec.threads[id]; rt != nil && !b.taken[id] {
			out = append(out, b.skipOwnExec(p, rt))
		}
	}
	return out
}

// skipOwnExec accounts for the command's own exec: it is the recording's
// first call of the root process, but live it is the tracer's helper's,
// which the tracer does not pass on. The root's recorded thread is then
// matched from its second call on.
func (b *binder) skipOwnExec(p *liveProc, rt *recThread) *recThread {
	if p.parent != 0 && b.procs[p.parent] != nil || len(rt.calls) == 0 ||
		b.rec.Table.ByNr(int(b.rec.callAt(rt.calls[0]).Nr)).Effects&systable.ExecsImage == 0 {
		return rt
	}
	cp := *rt
	cp.calls, cp.keys = rt.calls[1:], rt.keys.From(1)
	return &cp
}
