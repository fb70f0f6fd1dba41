package ebpfrec

import (
	"os"
	"sync/atomic"

	"github.com/envbisect/envbisect/launch"
)

// forwardSignals passes the first signal envbisect receives on to the
// command's root process, and kills the whole tree at the second or at
// the end of the grace (launch.ForwardInterrupts: SIGTERM to the command
// and its process group InterruptGrace after the first, SIGKILL to every
// process as long again after), as the ptrace backend does. stop ends the
// forwarding and reports whether any signal came.
func forwardSignals(sigs <-chan os.Signal, root int, t *launch.Tree) (stop func() bool) {
	if sigs == nil {
		return func() bool { return false }
	}
	var got atomic.Bool
	end := launch.ForwardInterrupts(launch.Interrupts{
		Signals: sigs,
		Root:    root,
		Got:     func() { got.Store(true) },
		KillAll: t.Kill,
	})
	return func() bool {
		end()
		return got.Load()
	}
}
