package record

import (
	"sync"
	"time"

	"github.com/envbisect/envbisect/trace"
)

const (
	flushEvents   = 256                   // wake the writer at this many pending events
	flushInterval = 20 * time.Millisecond // and at least this often
	maxPending    = 1 << 16               // the tracer waits beyond this many
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
	b.mu.Lock()
	for len(b.pending) >= maxPending && b.err == nil {
		b.cond.Wait()
	}
	b.pending = append(b.pending, ev)
	n := len(b.pending)
	b.mu.Unlock()
	if n == flushEvents {
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
		b.pending = spare[:0]
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
