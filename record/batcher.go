package record

import (
	"sync"
	"time"

	"github.com/envbisect/envbisect/trace"
)

const (
	flushEvents   = 256                   // wake the writer at this many pending events
	flushBytes    = 1 << 20               // or this many bytes of their buffers
	flushInterval = 20 * time.Millisecond // and at least this often
	maxPending    = 1 << 12               // the tracer waits beyond this many
	// maxPendingBytes bounds the buffer bytes of the pending events too:
	// 4096 calls of 64 KiB buffers (dd's) would be 256 MiB. The eBPF
	// reader waiting leaves the records in the ring, which is sized for
	// it; a full ring counts what it loses.
	maxPendingBytes = 8 << 20
)

// sink is where batches go: the trace file writer.
type sink interface {
	WriteStart([]trace.StartEvent) error
	WriteEvents([]trace.Event) error
}

// batcher is the launch.Observer of a recording: it queues events from
// the tracer thread and writes them from its own goroutine.
type batcher struct {
	out sink

	mu      sync.Mutex
	cond    *sync.Cond // signalled when the writer took a batch
	pending []trace.Event
	bytes   int // of the pending calls' buffers
	start   []trace.StartEvent
	started bool // Start was called: events may be written
	closed  bool
	err     error // first write error; later events are dropped
	written uint64

	wake chan struct{}
	done chan struct{}
}

func newBatcher(out sink) *batcher {
	b := &batcher{out: out, wake: make(chan struct{}, 1), done: make(chan struct{})}
	b.cond = sync.NewCond(&b.mu)
	go b.run()
	return b
}

// Start implements launch.Observer.
func (b *batcher) Start(ev []trace.StartEvent) {
	b.mu.Lock()
	b.start, b.started = ev, true
	b.mu.Unlock()
}

// Event implements launch.Observer. It blocks only when the writer is
// maxPending events behind.
func (b *batcher) Event(ev trace.Event) {
	size := 0
	if ev.Call != nil {
		for i := range ev.Call.Mem {
			size += len(ev.Call.Mem[i].Data)
		}
	}
	b.mu.Lock()
	for (len(b.pending) >= maxPending || b.bytes >= maxPendingBytes) && b.err == nil {
		b.cond.Wait()
	}
	b.pending = append(b.pending, ev)
	b.bytes += size
	n, crossed := len(b.pending), b.bytes >= flushBytes && b.bytes-size < flushBytes
	b.mu.Unlock()
	if n == flushEvents || crossed {
		select {
		case b.wake <- struct{}{}:
		default:
		}
	}
}

// close writes what is pending and stops the writer goroutine. It returns
// the first write error and the number of events written.
func (b *batcher) close() (uint64, error) {
	b.mu.Lock()
	b.closed, b.started = true, true
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
	<-b.done
	return b.written, b.err
}

func (b *batcher) run() {
	defer close(b.done)
	tick := time.NewTicker(flushInterval)
	defer tick.Stop()
	var spare []trace.Event
	for {
		select {
		case <-b.wake:
		case <-tick.C:
		}
		b.mu.Lock()
		closed := b.closed
		if !b.started {
			b.mu.Unlock()
			continue
		}
		start := b.start
		b.start = nil
		batch := b.pending
		b.pending, b.bytes = spare[:0], 0
		failed := b.err != nil
		b.cond.Broadcast()
		b.mu.Unlock()

		var err error
		if !failed && start != nil {
			err = b.out.WriteStart(start)
		}
		if !failed && err == nil && len(batch) > 0 {
			err = b.out.WriteEvents(batch)
			if err == nil {
				b.written += uint64(len(batch))
			}
		}
		if err != nil {
			b.mu.Lock()
			b.err = err
			b.cond.Broadcast()
			b.mu.Unlock()
		}
		clear(batch)
		spare = batch
		if closed {
			return
		}
	}
}
