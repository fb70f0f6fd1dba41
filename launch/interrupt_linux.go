package launch

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// InterruptGrace is how long a command has to end after the first
// signal envbisect passes on (Ctrl-C): then it gets SIGTERM, and after as
// long again every process of the run is killed. A command that ignores
// SIGINT and SIGTERM still ends within twice this.
const InterruptGrace = 3 * time.Second

// Interrupts is what ForwardInterrupts does a run's signals with.
type Interrupts struct {
	Signals <-chan os.Signal
	// Root is the command's own process.
	Root int
	// Got is called for each signal, before it is acted on (nil: no
	// call).
	Got func()
	// KillAll ends every process of the run, at the second signal or at
	// the end of the grace.
	KillAll func()
}

// ForwardInterrupts passes the first signal envbisect receives on to the
// command and makes a second one kill every process of the run: one rule
// for both recorders and for locate's runs. A Ctrl-C typed at the
// terminal already reached the command (it is in our foreground process
// group), so it is not sent twice. A command that does not end within
// InterruptGrace of the first signal gets SIGTERM (its process group
// too, when it leads one), and InterruptGrace later everything is
// killed, as by a second signal. stop ends the forwarding.
func ForwardInterrupts(in Interrupts) (stop func()) {
	quit := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		n := 0
		var escalate <-chan time.Time
		terminated := false
		for {
			select {
			case <-quit:
				return
			case <-escalate:
				if terminated {
					in.KillAll()
					escalate = nil
					continue
				}
				terminated = true
				unix.Kill(in.Root, unix.SIGTERM)
				if pg, err := unix.Getpgid(in.Root); err == nil && pg == in.Root {
					unix.Kill(-in.Root, unix.SIGTERM)
				}
				escalate = time.After(InterruptGrace)
			case sig := <-in.Signals:
				n++
				if in.Got != nil {
					in.Got()
				}
				if n > 1 {
					in.KillAll()
					continue
				}
				escalate = time.After(InterruptGrace)
				if sig == os.Interrupt && foregroundTTY() {
					continue
				}
				if ss, ok := sig.(syscall.Signal); ok {
					unix.Kill(in.Root, ss)
				}
			}
		}
	}()
	return func() {
		close(quit)
		<-done
	}
}

// foregroundTTY reports whether envbisect's stdin is a terminal whose
// foreground process group is ours: then a Ctrl-C went to the whole group.
func foregroundTTY() bool {
	pgrp, err := unix.IoctlGetInt(0, unix.TIOCGPGRP)
	return err == nil && pgrp == unix.Getpgrp()
}
