package ebpfrec

import (
	"os"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// forwardSignals passes the first signal envbisect receives on to the
// command's root process and kills the whole tree at the second, as the
// ptrace backend does. stop ends the forwarding and reports whether any
// signal came.
func forwardSignals(sigs <-chan os.Signal, root int, t *tree) (stop func() bool) {
	if sigs == nil {
		return func() bool { return false }
	}
	var got atomic.Int32
	quit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-quit:
				return
			case sig := <-sigs:
				if got.Add(1) == 1 {
					if s, ok := sig.(unix.Signal); ok {
						unix.Kill(root, s)
						continue
					}
				}
				t.kill()
			}
		}
	}()
	return func() bool {
		close(quit)
		<-done
		return got.Load() > 0
	}
}
