package main

import (
	"os"
	"runtime"
	"sync"

	"golang.org/x/sys/unix"
)

// maxJobs caps --jobs: more parallel runs than this rarely pay for the
// memory and the tracer threads they take.
const maxJobs = 16

// jobCPUs returns the CPU each parallel slot's run is pinned to: slot 0
// gets cpu (what --cpu chose), the others the remaining usable CPUs, from
// the highest down, wrapping around when there are more slots than CPUs.
// cpu -1 (--cpu any) leaves every run free.
func jobCPUs(cpu, jobs int) []int {
	out := make([]int, jobs)
	if cpu < 0 {
		for i := range out {
			out[i] = -1
		}
		return out
	}
	list := []int{cpu}
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err == nil {
		for i := runtime.NumCPU() * 4; i >= 0; i-- {
			if i != cpu && set.IsSet(i) {
				list = append(list, i)
			}
		}
	}
	for i := range out {
		out[i] = list[i%len(list)]
	}
	return out
}

// runInterrupts passes the signals envbisect receives on to every run
// under way (with --jobs, several at once).
type runInterrupts struct {
	mu    sync.Mutex
	chans map[chan os.Signal]struct{}
}

// add returns the channel a run receives signals on, and the function
// that ends its subscription.
func (r *runInterrupts) add() (<-chan os.Signal, func()) {
	ch := make(chan os.Signal, 2)
	r.mu.Lock()
	if r.chans == nil {
		r.chans = map[chan os.Signal]struct{}{}
	}
	r.chans[ch] = struct{}{}
	r.mu.Unlock()
	return ch, func() {
		r.mu.Lock()
		delete(r.chans, ch)
		r.mu.Unlock()
	}
}

// send passes sig on to every run, never blocking.
func (r *runInterrupts) send(sig os.Signal) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for ch := range r.chans {
		select {
		case ch <- sig:
		default:
		}
	}
}
