package sandbox

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// Probe builds a sandbox as Enter does, on a throwaway thread of this
// process, and reports whether it works here and what it would isolate
// (without spec.Objects).
// No process is started; the namespace ends with the thread. An error
// wrapping ErrUnsupported means this machine cannot isolate runs.
func Probe(spec Spec) (*Report, error) {
	ch := make(chan probeResult, 1)
	go probeOnThread(spec, ch)
	r := <-ch
	return r.rep, r.err
}

type probeResult struct {
	rep *Report
	err error
}

// probeOnThread enters the sandbox on a thread that then ends with the
// goroutine. Go never ends the main thread (it parks it), so when the
// goroutine lands there it keeps that thread busy and probes from
// another goroutine, which cannot land there meanwhile.
func probeOnThread(spec Spec, ch chan<- probeResult) {
	runtime.LockOSThread()
	if unix.Gettid() == unix.Getpid() {
		inner := make(chan probeResult, 1)
		go probeOnThread(spec, inner)
		r := <-inner
		runtime.UnlockOSThread()
		ch <- r
		return
	}
	// Never unlocked: the thread, its namespace and root end with this
	// goroutine.
	spec.Objects = nil
	rep, err := Enter(spec, nil)
	ch <- probeResult{rep, err}
}
