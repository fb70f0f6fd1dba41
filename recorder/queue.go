package recorder

import (
	"encoding/binary"
	"sync"

	"github.com/envbisect/envbisect/bpf"
)

// queueLimit bounds the bytes waiting for one session's reader: a client
// that stops reading must not hold up the ring, which every session
// shares, nor grow the recorder without bound. Records past it are
// dropped and counted (endFrame).
const queueLimit = 64 << 20

// queue holds the frames the demultiplexer routed to one session until
// its reader takes them. push never blocks.
type queue struct {
	mu     sync.Mutex
	cond   sync.Cond
	frames [][]byte
	bytes  int
	closed bool
	drop   endFrame // what push dropped (the Drop fields)
}

func newQueue() *queue {
	q := &queue{}
	q.cond.L = &q.mu
	return q
}

// push appends a frame, or drops it (counting it by record type) when
// the queue is full. A closed queue takes nothing.
func (q *queue) push(f []byte, recType uint32) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	if q.bytes+len(f) > queueLimit && recType != 0 {
		switch recType {
		case recCall:
			q.drop.DropCalls++
		case recChunk:
			q.drop.DropChunks++
		default:
			q.drop.DropOthers++
		}
		return
	}
	q.frames = append(q.frames, f)
	q.bytes += len(f)
	q.cond.Signal()
}

// pop waits for the next frame; ok is false once the queue is closed and
// empty.
func (q *queue) pop() (f []byte, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.frames) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.frames) == 0 {
		return nil, false
	}
	f = q.frames[0]
	q.frames[0] = nil
	q.frames = q.frames[1:]
	q.bytes -= len(f)
	return f, true
}

// popAll waits for frames as pop does and takes every frame queued,
// appended to dst: the writer sends them in one system call (one write
// per record was most of a busy recorder's CPU, and let the ring
// overflow). ok is false once the queue is closed and empty.
func (q *queue) popAll(dst [][]byte) (fs [][]byte, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.frames) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.frames) == 0 {
		return dst, false
	}
	dst = append(dst, q.frames...)
	clear(q.frames)
	q.frames = q.frames[:0]
	q.bytes = 0
	return dst, true
}

// close wakes the reader; what is queued can still be popped.
func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Broadcast()
	q.mu.Unlock()
}

// dropped returns what push dropped so far.
func (q *queue) dropped() endFrame {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.drop
}

// Ring record types (bpf/wire.h), read from a record's first word to
// route it without decoding it twice.
const (
	recCall  = 1
	recChunk = 2
	recFork  = 3
	recExec  = 4
	recExit  = 5
)

// recordType is a raw record's type.
func recordType(raw []byte) uint32 {
	if len(raw) < 4 {
		return 0
	}
	return binary.LittleEndian.Uint32(raw)
}

// lostSince is what the ring lost between two readings of its counters.
func lostSince(before, now bpf.Lost) bpf.Lost {
	return bpf.Lost{Calls: now.Calls - before.Calls, Chunks: now.Chunks - before.Chunks, Procs: now.Procs - before.Procs}
}
