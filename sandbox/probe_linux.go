package sandbox

import "runtime"

// Probe builds a sandbox as Enter does, on a throwaway thread of this
// process, and reports whether it works here and what it would isolate.
// No process is started; the namespace ends with the thread. An error
// wrapping ErrUnsupported means this machine cannot isolate runs.
func Probe(spec Spec) (*Report, error) {
	type result struct {
		rep *Report
		err error
	}
	ch := make(chan result, 1)
	go func() {
		// Never unlocked: the thread, its namespace and root end with this
		// goroutine.
		runtime.LockOSThread()
		rep, err := Enter(spec)
		ch <- result{rep, err}
	}()
	r := <-ch
	return r.rep, r.err
}
