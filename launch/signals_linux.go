package launch

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/callersig"
	"github.com/envbisect/envbisect/trace"
)

// Signal dispositions. The command starts with the signals ignored and
// blocked that envbisect's caller gave envbisect (record under nohup:
// SIGHUP ignored), or those a run sets (Config.Signals, replay of
// StartSignal items) — never what the Go runtime of envbisect and of its
// helper left: the runtime catches every signal but a few (an inherited
// SIG_IGN of SIGPIPE or SIGTERM is lost in any child it starts) and
// unblocks the ones it needs on every thread, the helper's exec thread
// included. package callersig reads the caller's sets before the
// runtime starts; the helper sets them on itself just before its exec
// (setSignals), which keeps both.

// CallerSignals are the signals envbisect's caller started it with
// ignored and blocked, of those a run can set (trace.SignalSettable).
// Built without cgo it is what /proc says of envbisect, which misses the
// signals the Go runtime catches.
func CallerSignals() trace.SignalSets {
	ign, blk, _ := callersig.Original()
	return settableSignals(trace.SignalSets{Ignored: ign, Blocked: blk})
}

// settableSignals is s without the signals no process can ignore or
// block, nor glibc's own.
func settableSignals(s trace.SignalSets) trace.SignalSets {
	var mask uint64
	for n := 1; n <= 64; n++ {
		if trace.SignalSettable(n) {
			mask |= 1 << (n - 1)
		}
	}
	return trace.SignalSets{Ignored: s.Ignored & mask, Blocked: s.Blocked & mask}
}

// procSignals reads the signals process pid ignores and blocks (its main
// thread's mask) from /proc/PID/status.
func procSignals(pid int) (trace.SignalSets, error) {
	ign, blk, err := callersig.ProcStatus(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return trace.SignalSets{}, err
	}
	return settableSignals(trace.SignalSets{Ignored: ign, Blocked: blk}), nil
}

// kernelSigaction is struct sigaction as rt_sigaction(2) takes it on
// x86-64.
type kernelSigaction struct {
	handler  uintptr
	flags    uint64
	restorer uintptr
	mask     uint64
}

// The handlers rt_sigaction(2) takes for the default action and for
// ignoring a signal.
const (
	sigDFL = 0
	sigIGN = 1
)

// setSignals makes the helper's signal dispositions s, on the calling
// thread (the one that execs) for the mask, for the exec to pass on:
// every settable signal in s.Ignored ignored, every other one back to its
// default action (the exec resets the Go runtime's handlers anyway; this
// undoes a SIGHUP or SIGINT the helper inherited ignored and s does not
// ignore), and the thread's mask s.Blocked. It uses the raw calls: the Go
// runtime has no API to ignore a signal it wants nor to block one on a
// thread. Nothing of the helper runs Go signal handling after it.
func setSignals(s trace.SignalSets) error {
	s = settableSignals(s)
	for n := 1; n <= 64; n++ {
		if !trace.SignalSettable(n) {
			continue
		}
		act := kernelSigaction{handler: sigDFL}
		if s.Ignored&(1<<(n-1)) != 0 {
			act.handler = sigIGN
		}
		if _, _, e := unix.RawSyscall6(unix.SYS_RT_SIGACTION, uintptr(n), uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0); e != 0 {
			return fmt.Errorf("set the disposition of %s: %w", trace.SignalName(n), e)
		}
	}
	mask := s.Blocked
	if _, _, e := unix.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&mask)), 0, 8, 0, 0); e != 0 {
		return fmt.Errorf("set the blocked signals: %w", e)
	}
	return nil
}
