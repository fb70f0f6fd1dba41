package launch

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// The descriptors a command starts with. Go's syscall.ForkExec closes
// none of its caller's descriptors: those without close-on-exec (what
// envbisect itself inherited from a shell, a CI runner, a test harness:
// a /dev/null at fd 3, a pipe at fd 251) reach the helper, and through
// its exec the command, which then runs with fewer descriptors to spare
// than under docker exec and fails on another file under a low
// RLIMIT_NOFILE. docker exec passes 0, 1 and 2 only, and so does
// envbisect: the helper marks every other descriptor close-on-exec just
// before it execs (closeOthersOnExec), except the ones Config.KeepFDs
// names, which spawnHelper passes at their own numbers (helperFiles) and
// the helper's own pipes come after.

// CommandFDs returns the descriptors a command started with keep gets:
// 0, 1, 2 and keep, sorted, each once.
func CommandFDs(keep []int) []int {
	out := append([]int{0, 1, 2}, keep...)
	slices.Sort(out)
	return slices.Compact(out)
}

// CheckKeepFDs returns an error naming the first of fds that is
// negative or that this process does not have open.
func CheckKeepFDs(fds []int) error {
	for _, fd := range fds {
		if fd < 0 {
			return fmt.Errorf("descriptor %d: not a descriptor number", fd)
		}
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); err != nil {
			return fmt.Errorf("descriptor %d is not open in envbisect: %w", fd, err)
		}
	}
	return nil
}

// closedFD is a ProcAttr.Files entry that the child closes.
const closedFD = ^uintptr(0)

// helperFiles returns the descriptors the helper starts with, as
// ProcAttr.Files (entry i becomes fd i): std at 0, 1 and 2, every
// descriptor of keep from 3 up at its own number, the numbers between
// them closed. The helper's own descriptors follow, from len(result).
func helperFiles(std [3]uintptr, keep []int) []uintptr {
	files := std[:]
	for _, fd := range CommandFDs(keep) {
		if fd < 3 {
			continue
		}
		for len(files) < fd {
			files = append(files, closedFD)
		}
		files = append(files, uintptr(fd))
	}
	return files
}

// closeOthersOnExec marks every descriptor of the calling process from 3
// up close-on-exec, except keep's, so that the exec that follows passes
// the command 0, 1, 2 and keep only. close_range(CLOSE_RANGE_CLOEXEC)
// (Linux 5.11) marks them in one call per range; without it each
// descriptor /proc/self/fd lists is marked, and without /proc every
// number below the open-files limit.
func closeOthersOnExec(keep []int) error {
	kept := CommandFDs(keep)
	mark := func(first, last uint) error { return unix.CloseRange(first, last, unix.CLOSE_RANGE_CLOEXEC) }
	from := 3
	for _, fd := range kept {
		if fd < from {
			continue // 0, 1 and 2
		}
		if fd > from {
			if err := mark(uint(from), uint(fd-1)); err != nil {
				return markOthersOnExec(kept)
			}
		}
		from = fd + 1
	}
	if err := mark(uint(from), ^uint(0)); err != nil {
		return markOthersOnExec(kept)
	}
	return nil
}

// markOthersOnExec is closeOthersOnExec without close_range.
func markOthersOnExec(kept []int) error {
	mark := func(fd int) error {
		if fd < 3 || slices.Contains(kept, fd) {
			return nil
		}
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC); err != nil && !errors.Is(err, unix.EBADF) {
			return fmt.Errorf("mark descriptor %d close-on-exec: %w", fd, err)
		}
		return nil
	}
	if ents, err := os.ReadDir("/proc/self/fd"); err == nil {
		for _, e := range ents {
			if fd, err := strconv.Atoi(e.Name()); err == nil {
				if err := mark(fd); err != nil {
					return err
				}
			}
		}
		return nil
	}
	var rl unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &rl); err != nil {
		return fmt.Errorf("close inherited descriptors: %w", err)
	}
	for fd := 3; uint64(fd) < rl.Cur; fd++ {
		if err := mark(fd); err != nil {
			return err
		}
	}
	return nil
}

// fdStart returns the StartFD events of process pid's descriptors fds:
// what /proc/PID/fd names for each that is open.
func fdStart(pid int, fds []int) []trace.StartEvent {
	var ev []trace.StartEvent
	for _, fd := range fds {
		if target, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%d", pid, fd)); err == nil {
			ev = append(ev, trace.StartEvent{Kind: trace.StartFD, Name: strconv.Itoa(fd), Value: target})
		}
	}
	return ev
}
