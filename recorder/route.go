package recorder

import (
	"fmt"
	"os"
	"strconv"

	"github.com/envbisect/envbisect/bpf"
)

// session is one recording through the recorder, as the loop sees it.
type session struct {
	q     *queue
	peer  *peer    // nil: root, or in-process
	lost0 bpf.Lost // the ring's loss counters when the session began
	tgids map[uint32]bool
	drain bool // a Drain waits for the next empty ring
	// drainLeft is how many bytes of the ring, when the Drain came, are
	// still to be read: the Drain is answered when they have been, even
	// if other sessions keep the ring from ever being empty.
	drainLeft int
	hid       uint64
}

func newSession(p *peer) *session {
	return &session{q: newQueue(), peer: p, tgids: map[uint32]bool{}}
}

// router is the loop's state: which session each recorded thread and
// process belongs to. The probe follows the union of the sessions' trees
// (its tracked map); the router splits the one stream it sends by the
// fork, exec and exit records, in stream order.
type router struct {
	probe    *bpf.Probe
	log      func(string, ...any)
	sessions map[*session]bool
	tgids    map[uint32]*session
	tids     map[uint32]*session
	stopping bool
	dec      bpf.Decoder // reused: routing allocates nothing per call
	rec      bpf.Record
}

func newRouter(p *bpf.Probe, log func(string, ...any)) *router {
	return &router{probe: p, log: log, sessions: map[*session]bool{}, tgids: map[uint32]*session{}, tids: map[uint32]*session{}}
}

// add starts a session.
func (r *router) add(s *session) {
	if lost, err := r.probe.Lost(); err == nil {
		s.lost0 = lost
	}
	r.sessions[s] = true
}

// follow has the probe follow pid (and every thread it has) for s. The
// router knows them before the probe records anything of them.
func (r *router) follow(s *session, pid int) error {
	if !r.sessions[s] {
		return fmt.Errorf("recorder: the session has ended")
	}
	if o := r.tgids[uint32(pid)]; o != nil && o != s {
		return fmt.Errorf("recorder: process %d is recorded by another session", pid)
	}
	tgid := uint32(pid)
	r.tgids[tgid] = s
	s.tgids[tgid] = true
	r.tids[tgid] = s
	if tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task"); err == nil {
		for _, t := range tasks {
			if tid, err := strconv.ParseUint(t.Name(), 10, 32); err == nil {
				r.tids[uint32(tid)] = s
			}
		}
	}
	if err := r.probe.Track(tgid); err != nil {
		r.unfollow(s, tgid)
		return err
	}
	return nil
}

// unfollow forgets a process of s and has the probe stop following it.
func (r *router) unfollow(s *session, tgid uint32) {
	if r.tgids[tgid] == s {
		delete(r.tgids, tgid)
	}
	delete(s.tgids, tgid)
	if err := r.probe.Untrack(tgid); err != nil {
		r.log("%v", err)
	}
}

// leave ends s: its processes are no longer followed, its queue closes.
func (r *router) leave(s *session) {
	if !r.sessions[s] {
		return
	}
	for tgid := range s.tgids {
		r.unfollow(s, tgid)
	}
	for tid, o := range r.tids {
		if o == s {
			delete(r.tids, tid)
		}
	}
	delete(r.sessions, s)
	s.q.close()
}

// route passes one ring record to its session, learning from it which
// threads and processes belong to which. A record of no session (a
// process of a session that ended, one hidden from its client) is
// dropped.
func (r *router) route(raw []byte) {
	// Answered after this record is queued: it was in the ring then.
	defer r.countDrains(bpf.RecordSpan(len(raw)))
	rec := &r.rec
	if err := r.dec.Decode(raw, rec); err != nil {
		r.log("%v", err)
		return
	}
	var s *session
	switch {
	case rec.Call != nil:
		c := rec.Call
		if s = r.tids[c.TID]; s == nil {
			if s = r.tgids[c.TGID]; s != nil {
				r.tids[c.TID] = s
			}
		}
	case rec.Chunk != nil:
		s = r.tids[rec.Chunk.TID]
	case rec.Fork != nil:
		f := rec.Fork
		if s = r.tgids[f.ParentTGID]; s == nil {
			s = r.tids[f.ParentTID]
		}
		if s != nil {
			r.tids[f.ChildTID] = s
			if !f.Thread {
				r.tgids[f.ChildTGID] = s
				s.tgids[f.ChildTGID] = true
			}
		}
	case rec.Exec != nil:
		e := rec.Exec
		if s = r.tgids[e.TGID]; s == nil {
			s = r.tids[e.OldTID]
		}
		if s == nil {
			break
		}
		if e.OldTID != e.TID {
			delete(r.tids, e.OldTID)
			r.tids[e.TID] = s
		}
		if e.Secure && s.peer != nil {
			// A set-user-ID or file-capability program: ptrace would
			// not have given its client more than the client has.
			r.unfollow(s, e.TGID)
			delete(r.tids, e.TID)
			s.hid++
			return
		}
	case rec.Exit != nil:
		e := rec.Exit
		if s = r.tids[e.TID]; s == nil {
			s = r.tgids[e.TGID]
		}
		delete(r.tids, e.TID)
		if e.GroupDead && s != nil && r.tgids[e.TGID] == s {
			delete(r.tgids, e.TGID)
			delete(s.tgids, e.TGID)
		}
	}
	if s != nil {
		s.q.push(frame(kindRecord, raw), recordType(raw))
	}
}

// drainFrom asks for s's End once what the ring holds now has been read:
// at once when the ring holds nothing (the loop runs requests between
// records, so everything read has been routed).
func (r *router) drainFrom(s *session) {
	s.drain = true
	s.drainLeft = r.probe.Pending()
	if s.drainLeft <= 0 {
		s.drain = false
		s.q.push(r.end(s), 0)
	}
}

// countDrains counts n bytes of the ring as read, and answers the drains
// that were waiting for them.
func (r *router) countDrains(n int) {
	for s := range r.sessions {
		if !s.drain {
			continue
		}
		if s.drainLeft -= n; s.drainLeft <= 0 {
			s.drain = false
			s.q.push(r.end(s), 0)
		}
	}
}

// endDrains answers the drains asked before the ring was last found
// empty: everything of theirs has been routed.
func (r *router) endDrains() {
	for s := range r.sessions {
		if s.drain {
			s.drain = false
			s.q.push(r.end(s), 0)
		}
	}
}

// endAll ends every session (the recorder stops).
func (r *router) endAll() {
	for s := range r.sessions {
		s.q.push(r.end(s), 0)
		r.leave(s)
	}
}

// end is s's End frame.
func (r *router) end(s *session) []byte {
	e := s.q.dropped()
	if lost, err := r.probe.Lost(); err == nil {
		l := lostSince(s.lost0, lost)
		e.LostCalls, e.LostChunks, e.LostProcs = l.Calls, l.Chunks, l.Procs
	}
	e.HiddenProcs = s.hid
	return jsonFrame(kindEnd, e)
}
