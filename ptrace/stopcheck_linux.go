package ptrace

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// When the tracer's model of a stop is wrong.
//
// wait4 reports a stop, and the requests the tracer then makes assume
// the thread is still in it. A SIGKILL (the command killing a child, a
// process group killed, exit_group or an exec in another thread zapping
// this one) wakes a thread out of any ptrace stop between two requests:
// the next request fails with ESRCH while it runs toward its exit, or,
// once it has reached its PTRACE_EVENT_EXIT stop, succeeds or fails
// against that other stop: PTRACE_LISTEN answers EIO (the stop is no
// group-stop), PTRACE_GETEVENTMSG the exit code instead of a new tid.
// The kernel reports the new stop and the death by wait4 as usual, so
// such a thread is not a failure of the run: the handler's work on it is
// dropped and the loop goes on (leftStop). Any other failed request ends
// the run with an error naming the request, the stop and the thread.

// requestError is a ptrace request that failed.
type requestError struct {
	req int
	err unix.Errno
}

func (e *requestError) Error() string { return requestName(e.req) + ": " + e.err.Error() }
func (e *requestError) Unwrap() error { return e.err }

// requestName names a ptrace request for an error message.
func requestName(req int) string {
	switch req {
	case unix.PTRACE_GETREGS:
		return "PTRACE_GETREGS"
	case unix.PTRACE_SETREGS:
		return "PTRACE_SETREGS"
	case unix.PTRACE_GETEVENTMSG:
		return "PTRACE_GETEVENTMSG"
	case unix.PTRACE_GETSIGINFO:
		return "PTRACE_GETSIGINFO"
	case unix.PTRACE_SYSCALL:
		return "PTRACE_SYSCALL"
	case unix.PTRACE_CONT:
		return "PTRACE_CONT"
	case unix.PTRACE_LISTEN:
		return "PTRACE_LISTEN"
	case unix.PTRACE_INTERRUPT:
		return "PTRACE_INTERRUPT"
	case unix.PTRACE_SEIZE:
		return "PTRACE_SEIZE"
	case unix.PTRACE_DETACH:
		return "PTRACE_DETACH"
	case unix.PTRACE_POKEDATA:
		return "PTRACE_POKEDATA"
	}
	return "ptrace request " + strconv.Itoa(req)
}

// stopError is the failure of a stop's handling: which stop it was.
type stopError struct {
	stop string
	err  error
}

func (e *stopError) Error() string {
	var req *requestError
	if errors.As(e.err, &req) && req == e.err {
		return requestName(req.req) + " at " + e.stop + ": " + req.err.Error()
	}
	return "at " + e.stop + ": " + e.err.Error()
}

func (e *stopError) Unwrap() error { return e.err }

// stopName names the stop ws reports, for an error message; inSyscall:
// the tracer resumed the thread inside a call, so a syscall stop is that
// call's exit.
func stopName(ws unix.WaitStatus, inSyscall bool) string {
	sig := int(ws>>8) & 0xff
	switch event := int(ws>>16) & 0xff; {
	case sig == int(unix.SIGTRAP)|0x80 && inSyscall:
		return "syscall exit"
	case sig == int(unix.SIGTRAP)|0x80:
		return "syscall entry"
	case event == unix.PTRACE_EVENT_SECCOMP:
		return "seccomp stop"
	case event == unix.PTRACE_EVENT_CLONE:
		return "clone event"
	case event == unix.PTRACE_EVENT_FORK:
		return "fork event"
	case event == unix.PTRACE_EVENT_VFORK:
		return "vfork event"
	case event == unix.PTRACE_EVENT_EXEC:
		return "exec event"
	case event == unix.PTRACE_EVENT_EXIT:
		return "exit event"
	case event == unix.PTRACE_EVENT_STOP:
		return "group-stop (" + unix.SignalName(unix.Signal(sig)) + ")"
	case event != 0:
		return "event " + strconv.Itoa(event)
	}
	return "signal-delivery stop (" + unix.SignalName(unix.Signal(sig)) + ")"
}

// errLeftStop says that the thread is no longer in the stop wait4
// reported: killed meanwhile (leftStop tells), or the model is wrong.
var errLeftStop = errors.New("the thread is no longer in that stop")

// siginfoOfStop is the si_code a ptrace stop's siginfo carries: for an
// event stop SIGTRAP|event<<8, for a syscall stop SIGTRAP|0x80.
func siginfoOfStop(tid int) (int32, error) {
	var info [128]byte
	if err := ptrace(unix.PTRACE_GETSIGINFO, tid, 0, uintptr(unsafe.Pointer(&info[0]))); err != nil {
		return 0, err
	}
	return int32(binary.LittleEndian.Uint32(info[siginfoCode:])), nil
}

// stillAtEvent reports whether tid is still in the event stop wait4
// reported (event: PTRACE_EVENT_CLONE ...). A thread killed after the
// report is at its PTRACE_EVENT_EXIT stop now, or on its way there, and
// what PTRACE_GETEVENTMSG gave is its exit code, not the event's message.
// Call it after reading the message: a thread never comes back to a stop
// it left.
func stillAtEvent(tid, event int) bool {
	code, err := siginfoOfStop(tid)
	return err == nil && code == int32(unix.SIGTRAP)|int32(event)<<8
}

// leftGrace bounds how long leftStop waits for a thread it finds running
// after a failed request to show that it is dying. A killed thread
// reaches its exit stop within a scheduling round; one that does not is
// a fault in the tracer's model.
const leftGrace = 2 * time.Second

// leftStop reports whether err, from a request on t at the stop the loop
// is handling, means that t was killed meanwhile: the request failed
// with ESRCH or EIO (or the handler saw t leave the stop), and t is at
// its PTRACE_EVENT_EXIT stop, has a SIGKILL pending, or is dead. wait4
// reports its exit stop and its death next; nothing of this stop is
// lost that a recording of a killed thread would keep.
func leftStop(tid int, err error) bool {
	if !errors.Is(err, unix.ESRCH) && !errors.Is(err, unix.EIO) && !errors.Is(err, errLeftStop) {
		return false
	}
	deadline := time.Now().Add(leftGrace)
	for {
		switch stateOf(tid) {
		case threadDying:
			return true
		case threadStopped:
			return false // in a stop and not killed: the request failed for another reason
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Millisecond)
	}
}

// threadState is what dying threads look like from the tracer.
type threadState int

const (
	threadRunning threadState = iota // not in a stop, no SIGKILL pending
	threadStopped                    // in a ptrace stop other than its exit stop
	threadDying                      // at PTRACE_EVENT_EXIT, SIGKILL pending, or gone
)

// stateOf tells whether tid is at its PTRACE_EVENT_EXIT stop, has a
// SIGKILL pending (its own or its thread group's), or is gone; or else
// is in another stop or running.
func stateOf(tid int) threadState {
	if code, err := siginfoOfStop(tid); err == nil {
		if code>>8 == unix.PTRACE_EVENT_EXIT {
			return threadDying
		}
		return threadStopped
	}
	status, err := os.ReadFile("/proc/" + strconv.Itoa(tid) + "/status")
	if err != nil {
		return threadDying // reaped meanwhile, or the tid changed at an exec
	}
	const sigkill = 1 << (unix.SIGKILL - 1)
	for _, line := range strings.Split(string(status), "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "State":
			if strings.HasPrefix(val, "Z") || strings.HasPrefix(val, "X") {
				return threadDying
			}
		case "SigPnd", "ShdPnd":
			if mask, err := strconv.ParseUint(val, 16, 64); err == nil && mask&sigkill != 0 {
				return threadDying
			}
		}
	}
	return threadRunning
}

// threadError names the thread a failed stop belongs to.
func threadError(t *task, err error) error {
	pid := t.tid
	if t.proc != nil && t.proc.pid != 0 {
		pid = t.proc.pid
	}
	return fmt.Errorf("trace pid %d thread %d: %w", pid, t.tid, err)
}
