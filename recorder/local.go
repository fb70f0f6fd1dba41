package recorder

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/envbisect/envbisect/bpf"
)

// Local is a recording the recorder makes for itself (a container it
// follows): a session without a socket. Its methods are Session's.
type Local struct {
	s    *Server
	sess *session

	drainOnce sync.Once
	mu        sync.Mutex
	end       *endFrame
}

// Local starts an in-process session.
func (s *Server) Local() (*Local, error) {
	l := &Local{s: s, sess: newSession(nil)}
	if !s.do(func(r *router) { r.add(l.sess) }) {
		return nil, errors.New("recorder: stopping")
	}
	return l, nil
}

// Track has the recorder follow tgid for this session.
func (l *Local) Track(tgid uint32) error {
	var err error
	if !l.s.do(func(r *router) { err = r.follow(l.sess, int(tgid)) }) {
		return errors.New("recorder: stopping")
	}
	return err
}

// ReadBatch hands the next record to fn (see Session.ReadBatch).
func (l *Local) ReadBatch(fn func(*bpf.Record)) (int, error) {
	return readOne(l.Read, fn)
}

// Read returns the next record (see Session.Read).
func (l *Local) Read() (bpf.Record, error) {
	for {
		f, ok := l.sess.q.pop()
		if !ok {
			return bpf.Record{}, fmt.Errorf("recorder: %w", os.ErrClosed)
		}
		kind, payload := f[4], f[5:]
		switch kind {
		case kindRecord:
			return bpf.Decode(payload)
		case kindEnd:
			var e endFrame
			if err := json.Unmarshal(payload, &e); err != nil {
				return bpf.Record{}, fmt.Errorf("recorder: end frame: %w", err)
			}
			l.mu.Lock()
			l.end = &e
			l.mu.Unlock()
			return bpf.Record{}, fmt.Errorf("recorder: %w", os.ErrDeadlineExceeded)
		}
	}
}

// SetDeadline drains at t (see Session.SetDeadline).
func (l *Local) SetDeadline(t time.Time) {
	if t.IsZero() {
		return
	}
	time.AfterFunc(time.Until(t), func() {
		l.drainOnce.Do(func() {
			if !l.s.do(func(r *router) { r.drainFrom(l.sess) }) {
				l.sess.q.close() // stopped: the loop ended every session already
			}
		})
	})
}

// Lost returns what the session lost (see Session.Lost).
func (l *Local) Lost() (bpf.Lost, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.end == nil {
		return bpf.Lost{}, errors.New("recorder: losses are known after the drain")
	}
	e := l.end
	return bpf.Lost{Calls: e.LostCalls + e.DropCalls, Chunks: e.LostChunks + e.DropChunks, Procs: e.LostProcs + e.DropOthers}, nil
}

// Close ends the session.
func (l *Local) Close() error {
	l.s.do(func(r *router) { r.leave(l.sess) })
	l.sess.q.close()
	return nil
}
