package replay

import (
	"os"
	"sync"
	"syscall"
)

// An observation run (Options.ObserveOnly) is made for the live results
// of a few recorded calls: locate's object search, having found its
// causes with untraced runs, makes one traced run with nothing replayed
// to say what the first call that met each cause gave here. That run
// need not go on once those calls have run: a command that reads its
// configuration and then computes for minutes is stopped after the
// read. It is stopped as a second Ctrl-C stops a run (launch's
// ForwardInterrupts kills every process at once), through the run's own
// interrupt channel, into which the user's signals are passed on too.

// observation counts the calls an observation run still waits for.
type observation struct {
	mu      sync.Mutex
	waiting map[uint64]bool
	stop    func() // ends the run; called once, when waiting empties
}

// saw notes that recorded call seq ran live.
func (o *observation) saw(seq uint64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.waiting[seq] {
		return
	}
	delete(o.waiting, seq)
	if len(o.waiting) == 0 && o.stop != nil {
		o.stop()
		o.stop = nil
	}
}

// done reports whether every call the run was made for ran live.
func (o *observation) done() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.waiting) == 0
}

// observeOnly sets e up to end its run once every call of seqs ran live,
// and returns the interrupt channel the run must use (user's passes
// through it) and a function that releases it when the run is over.
// Without seqs, it returns user unchanged.
func observeOnly(e *engine, seqs []uint64, user <-chan os.Signal) (<-chan os.Signal, func()) {
	if len(seqs) == 0 {
		return user, func() {}
	}
	ch := make(chan os.Signal, 4)
	quit := make(chan struct{})
	e.observed = &observation{waiting: make(map[uint64]bool, len(seqs)), stop: func() {
		// Two signals: the second kills every process of the run at once.
		for range 2 {
			select {
			case ch <- syscall.SIGKILL:
			default:
			}
		}
	}}
	for _, q := range seqs {
		e.observed.waiting[q] = true
	}
	go func() {
		for {
			select {
			case sig, ok := <-user:
				if !ok {
					return
				}
				select {
				case ch <- sig:
				case <-quit:
					return
				}
			case <-quit:
				return
			}
		}
	}()
	var once sync.Once
	return ch, func() { once.Do(func() { close(quit) }) }
}
