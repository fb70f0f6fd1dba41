package recorder

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/bpf"
)

// ErrRefused: the recorder answered but will not record this process
// (another capture limit, a process the client may not have followed):
// the client can still load a probe of its own.
var ErrRefused = errors.New("the recorder refused")

// ackTimeout bounds the wait for the recorder's answer to a Follow.
const ackTimeout = 30 * time.Second

// Session is a recording through a resident recorder, from the client's
// side: it has the recorder follow processes and reads their records as
// a probe of its own would give them (ebpfrec.Source). Read from one
// goroutine; SetDeadline, Lost and Close may be called from any.
type Session struct {
	conn       *net.UnixConn
	r          *bufio.Reader
	maxCapture uint32

	wmu       sync.Mutex
	drainOnce sync.Once

	pending []bpf.Record // records that came before an ack
	buf     []byte
	dec     bpf.Decoder // ReadBatch's, reused
	rec     bpf.Record

	mu  sync.Mutex
	end *endFrame
}

// Dial connects to the recorder at path. maxCapture is the capture limit
// the recording uses (the recorder's must be the same). An error
// wrapping fs.ErrNotExist or syscall.ECONNREFUSED means no recorder
// answers there.
func Dial(path string, maxCapture uint32) (*Session, error) {
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("recorder at %s: %w", path, err)
	}
	return &Session{conn: c, r: bufio.NewReaderSize(c, 64<<10), maxCapture: maxCapture}, nil
}

// Track has the recorder follow tgid and what it starts, and returns once
// it does: start the process stopped, call Track, then let it run.
func (s *Session) Track(tgid uint32) error {
	pidfd, err := unix.PidfdOpen(int(tgid), 0)
	if err != nil {
		return fmt.Errorf("recorder: pidfd of process %d: %w", tgid, err)
	}
	defer unix.Close(pidfd)
	f := jsonFrame(kindFollow, followRequest{MaxCapture: s.maxCapture})
	s.wmu.Lock()
	_, _, err = s.conn.WriteMsgUnix(f, unix.UnixRights(pidfd), nil)
	s.wmu.Unlock()
	if err != nil {
		return fmt.Errorf("recorder: ask to follow process %d: %w", tgid, err)
	}
	// A recorder that hangs must not hang the recording: it answers
	// within milliseconds when it works.
	s.conn.SetReadDeadline(time.Now().Add(ackTimeout))
	defer s.conn.SetReadDeadline(time.Time{})
	for {
		kind, payload, err := readFrame(s.r, s.buf)
		if err != nil {
			return fmt.Errorf("recorder: wait for it to follow process %d: %w", tgid, err)
		}
		s.buf = payload
		switch kind {
		case kindRecord:
			rec, err := bpf.Decode(payload)
			if err != nil {
				return fmt.Errorf("recorder: %w", err)
			}
			s.pending = append(s.pending, rec)
		case kindAck:
			var a ack
			if err := json.Unmarshal(payload, &a); err != nil {
				return fmt.Errorf("recorder: its answer: %w", err)
			}
			if a.Error != "" {
				return fmt.Errorf("%w to follow process %d: %s", ErrRefused, tgid, a.Error)
			}
			return nil
		default:
			return fmt.Errorf("recorder: unexpected frame %d before its answer", kind)
		}
	}
}

// ReadBatch hands fn the next record, waiting for it as Read does, and
// then every record already received (ebpfrec.Source's reading), with
// Read's errors. As with bpf.Probe.ReadBatch, the *Record given to fn,
// and its Call (with its Bufs) and Chunk (with its Data), are reused for
// the next record: fn copies what it keeps. Decoding allocates nothing
// for calls and chunks.
func (s *Session) ReadBatch(fn func(*bpf.Record)) (int, error) {
	if len(s.pending) > 0 || s.ended() {
		return readOne(s.Read, fn)
	}
	n := 0
	for n == 0 || s.r.Buffered() > 0 {
		kind, payload, err := readFrame(s.r, s.buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				err = os.ErrClosed
			}
			return n, fmt.Errorf("recorder: read: %w", err)
		}
		s.buf = payload
		switch kind {
		case kindRecord:
			if err := s.dec.Decode(payload, &s.rec); err != nil {
				return n, err
			}
			fn(&s.rec)
			n++
		case kindEnd:
			if err := s.takeEnd(payload); err != nil {
				return n, err
			}
			if n > 0 {
				return n, nil // the next call reports the end
			}
			return 0, fmt.Errorf("recorder: %w", os.ErrDeadlineExceeded)
		default:
			return n, fmt.Errorf("recorder: unexpected frame %d", kind)
		}
	}
	return n, nil
}

// takeEnd keeps the recorder's end frame.
func (s *Session) takeEnd(payload []byte) error {
	var e endFrame
	if err := json.Unmarshal(payload, &e); err != nil {
		return fmt.Errorf("recorder: its end frame: %w", err)
	}
	s.mu.Lock()
	s.end = &e
	s.mu.Unlock()
	return nil
}

// readOne reads one record with read and hands it to fn.
func readOne(read func() (bpf.Record, error), fn func(*bpf.Record)) (int, error) {
	r, err := read()
	if err != nil {
		return 0, err
	}
	fn(&r)
	return 1, nil
}

// Read returns the next record. After a drain (SetDeadline), once the
// recorder has sent everything up to it, Read returns an error wrapping
// os.ErrDeadlineExceeded; after Close, one wrapping os.ErrClosed.
func (s *Session) Read() (bpf.Record, error) {
	if len(s.pending) > 0 {
		rec := s.pending[0]
		s.pending = s.pending[1:]
		return rec, nil
	}
	if s.ended() {
		return bpf.Record{}, fmt.Errorf("recorder: %w", os.ErrDeadlineExceeded)
	}
	for {
		kind, payload, err := readFrame(s.r, s.buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				err = os.ErrClosed
			}
			return bpf.Record{}, fmt.Errorf("recorder: read: %w", err)
		}
		s.buf = payload
		switch kind {
		case kindRecord:
			return bpf.Decode(payload)
		case kindEnd:
			if err := s.takeEnd(payload); err != nil {
				return bpf.Record{}, err
			}
			return bpf.Record{}, fmt.Errorf("recorder: %w", os.ErrDeadlineExceeded)
		default:
			return bpf.Record{}, fmt.Errorf("recorder: unexpected frame %d", kind)
		}
	}
}

func (s *Session) ended() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.end != nil
}

// SetDeadline asks the recorder, at t, for everything it holds of the
// session and its end (a drain). The zero time does nothing.
func (s *Session) SetDeadline(t time.Time) {
	if t.IsZero() {
		return
	}
	time.AfterFunc(time.Until(t), func() {
		s.drainOnce.Do(func() {
			s.wmu.Lock()
			defer s.wmu.Unlock()
			s.conn.Write(frame(kindDrain, nil)) // a failed write shows as a failed Read
		})
	})
}

// Lost returns what the session lost: what the ring dropped while it was
// open (the ring is shared: other sessions' losses count too) and what
// the recorder dropped because the client read too slowly. Known after
// the drain.
func (s *Session) Lost() (bpf.Lost, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.end == nil {
		return bpf.Lost{}, errors.New("recorder: the session ended before the recorder sent its end (did the recorder stop?)")
	}
	e := s.end
	return bpf.Lost{Calls: e.LostCalls + e.DropCalls, Chunks: e.LostChunks + e.DropChunks, Procs: e.LostProcs + e.DropOthers}, nil
}

// Hidden is how many processes the recorder stopped passing on because
// an exec gave them privileges the client lacks (see package doc). Known
// after the drain.
func (s *Session) Hidden() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.end == nil {
		return 0
	}
	return s.end.HiddenProcs
}

// Close hangs up: the recorder stops following the session's processes.
func (s *Session) Close() error {
	return s.conn.Close()
}
