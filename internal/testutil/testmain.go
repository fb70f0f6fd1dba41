package testutil

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Main runs the tests of a package and then fails the run if they left
// anything behind: a file descriptor this process did not have at the
// start, or a process that is still its child (running or an unreaped
// zombie) or still traced by one of its threads. envbisect tracks fds and
// processes for a living; its tests must not leak either. Use it as
//
//	func TestMain(m *testing.M) { testutil.Main(m) }
//
// Leftover processes are reported, then killed (and reaped if they are
// children) so that they do not outlive the test binary. Main also fails
// the run when the tests changed a host object they must never touch
// (hostguard.go: /dev/null's mode, /etc/resolv.conf ...). Main also
// removes the binary Envbisect built. It calls os.Exit.
//
// The tests' recordings keep record's content cache
// ($XDG_CACHE_HOME/envbisect/content) in a directory of the test binary's
// own, removed at the end, never in the user's.
func Main(m *testing.M) {
	cache, err := os.MkdirTemp("", "envbisect-test-cache-")
	if err == nil {
		os.Chmod(cache, 0o1777) // tests that record as another user find it too
		os.Setenv("XDG_CACHE_HOME", cache)
	}
	code := runMain(m, os.Stderr, leakGrace)
	removeEnvbisect()
	if err == nil {
		os.RemoveAll(cache)
	}
	os.Exit(code)
}

// leakGrace is how long the check waits for processes that are just now
// exiting (killed at the end of a test, not yet reaped by their waiter).
const leakGrace = 3 * time.Second

func runMain(m interface{ Run() int }, w io.Writer, grace time.Duration) int {
	warmRuntimeFDs()
	before := openFDs()
	host := hostState()
	code := m.Run()

	leaked := false
	for _, c := range hostChanges(host, hostState()) {
		fmt.Fprintf(w, "testutil.Main: the tests changed the host's %s\n", c)
		leaked = true
	}
	restoreDevNull()
	after := openFDs()
	for _, fd := range sortedKeys(after) {
		now := after[fd]
		if was, ok := before[fd]; ok && was == now {
			continue
		}
		fmt.Fprintf(w, "testutil.Main: leaked file descriptor %d -> %s (opened by the tests, never closed)\n", fd, now)
		leaked = true
	}

	deadline := time.Now().Add(grace)
	procs := leftoverProcs()
	for len(procs) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		procs = leftoverProcs()
	}
	for _, p := range procs {
		fmt.Fprintf(w, "testutil.Main: process %d (%s, state %s) left behind: %s; killing it\n", p.pid, p.comm, p.state, p.why)
		leaked = true
		syscall.Kill(p.pid, syscall.SIGKILL)
	}
	for _, p := range procs {
		if p.child {
			var ws syscall.WaitStatus
			syscall.Wait4(p.pid, &ws, syscall.WALL, nil)
		}
	}
	if leaked {
		fmt.Fprintln(w, "FAIL: the tests left file descriptors or processes behind, or changed the host (see above)")
		if code == 0 {
			code = 1
		}
	}
	return code
}

// warmRuntimeFDs makes the Go runtime open the fds it opens once and
// keeps (the network poller's epoll fd and its wake-up fd), so that their
// first use inside a test does not look like a leak.
func warmRuntimeFDs() {
	r, w, err := os.Pipe() // pipes are registered with the poller
	if err == nil {
		r.Close()
		w.Close()
	}
}

// openFDs maps each open fd of this process to what it refers to.
func openFDs() map[int]string {
	fds := map[int]string{}
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return fds
	}
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name()))
		if err != nil {
			continue // ReadDir's own fd, closed by now
		}
		fds[fd] = target
	}
	return fds
}

func sortedKeys(m map[int]string) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// proc is a process the tests left behind.
type proc struct {
	pid         int
	comm, state string
	child       bool
	why         string
}

// leftoverProcs lists this process's children and the threads traced by
// any thread of this process (a tracer is one locked OS thread, and
// /proc's TracerPid names that thread, not the process).
func leftoverProcs() []proc {
	self := os.Getpid()
	ours := map[int]bool{self: true}
	if ents, err := os.ReadDir("/proc/self/task"); err == nil {
		for _, e := range ents {
			if tid, err := strconv.Atoi(e.Name()); err == nil {
				ours[tid] = true
			}
		}
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []proc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		comm, state, ppid, ok := readStat(filepath.Join("/proc", e.Name(), "stat"))
		if !ok {
			continue // gone meanwhile
		}
		p := proc{pid: pid, comm: comm, state: state}
		if ppid == self {
			p.child = true
			p.why = "still a child of the test process"
			if state == "Z" {
				p.why = "an unreaped child of the test process (zombie)"
			}
		}
		if tracer := tracedBy(pid); tracer != 0 && ours[tracer] {
			if p.why != "" {
				p.why += ", "
			}
			p.why += fmt.Sprintf("still traced by thread %d of the test process", tracer)
		}
		if p.why != "" {
			out = append(out, p)
		}
	}
	return out
}

// readStat returns comm, state and ppid from /proc/PID/stat. comm may
// contain spaces and parentheses: the fields after it follow the last ')'.
func readStat(path string) (comm, state string, ppid int, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", "", 0, false
	}
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return "", "", 0, false
	}
	f := strings.Fields(s[end+1:])
	if len(f) < 2 {
		return "", "", 0, false
	}
	ppid, err = strconv.Atoi(f[1])
	return s[open+1 : end], f[0], ppid, err == nil
}

// tracedBy returns the tracer of any thread of pid, or 0.
func tracedBy(pid int) int {
	dir := filepath.Join("/proc", strconv.Itoa(pid), "task")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name(), "status"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "TracerPid:"); ok {
				if t, _ := strconv.Atoi(strings.TrimSpace(v)); t != 0 {
					return t
				}
				break
			}
		}
	}
	return 0
}
