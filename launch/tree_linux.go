package launch

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// Tree is a command's process tree as /proc shows it, for a run that
// does not trace it (the eBPF recorder, a materialized run): the root and
// its descendants, and the orphans reparented to envbisect, which is
// their child subreaper (BecomeSubreaper), with theirs. A ptrace run
// knows its processes from their stops instead.
type Tree struct {
	root int
	// before are the children envbisect had when the tree was made:
	// never orphans of the command's, they and theirs are left out.
	before map[int]bool
	// NotOurs, when set, returns a child of envbisect that is not the
	// command's (the check command the Watcher runs), or 0: it and its
	// descendants are left out.
	NotOurs func() int
	// killed is set once Kill has run: the run was ended (a timeout, an
	// interrupt, a refusal), and what it ended was not left running by
	// the command.
	killed atomic.Bool
}

// NewTree returns the tree of the command whose process is root. Call
// it once the command's process exists and before it can leave orphans:
// the other children envbisect has then are not the command's.
func NewTree(root int) *Tree {
	t := &Tree{root: root, before: map[int]bool{}}
	self := os.Getpid()
	kids, _, ok := procChildren(self)
	if !ok {
		kids = nil
		for pid, ppid := range procParents() {
			if ppid == self {
				kids = append(kids, pid)
			}
		}
	}
	for _, pid := range kids {
		if pid != root {
			t.before[pid] = true
		}
	}
	return t
}

// Kill SIGKILLs every process of the command.
func (t *Tree) Kill() {
	t.killed.Store(true)
	for _, pid := range t.Members() {
		unix.Kill(pid, unix.SIGKILL)
	}
}

// Killed reports whether Kill has run.
func (t *Tree) Killed() bool { return t.killed.Load() }

// Executables lists the executables of the command's processes alive
// now (sorted, each once), what the run ends when the command exits.
func (t *Tree) Executables() []string {
	var out []string
	for _, pid := range t.Members() {
		if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err == nil && !slices.Contains(out, exe) {
			out = append(out, exe)
		}
	}
	slices.Sort(out)
	return out
}

// Members returns the pids of the command's processes alive now.
//
// It walks down from the root and envbisect's own children through each
// thread's /proc/PID/task/TID/children, reading only the command's tree
// (a few files when the command has exited; zombies are members, as
// they are until reaped) rather than every process
// of the machine; a kernel without that file (CONFIG_PROC_CHILDREN) has
// every /proc/PID/stat read instead (membersByScan).
func (t *Tree) Members() []int {
	self, skip := os.Getpid(), 0
	if t.NotOurs != nil {
		skip = t.NotOurs()
	}
	kids, _, ok := procChildren(self)
	if !ok {
		return t.membersByScan(self, skip)
	}
	seen := map[int]bool{}
	var out []int
	queue := append([]int{t.root}, kids...)
	for len(queue) > 0 && len(seen) < 1<<16 {
		pid := queue[0]
		queue = queue[1:]
		if pid <= 1 || pid == self || pid == skip || t.before[pid] || seen[pid] {
			continue
		}
		seen[pid] = true
		kids, exists, _ := procChildren(pid)
		if !exists {
			continue // gone (the root, once reaped)
		}
		out = append(out, pid)
		queue = append(queue, kids...)
	}
	sort.Ints(out)
	return out
}

// membersByScan is Members from every process's parent in /proc.
func (t *Tree) membersByScan(self, skip int) []int {
	parent := procParents()
	var out []int
	for pid := range parent {
		// Walk up to the root, or to a child of envbisect.
		for p, hops := pid, 0; p > 1 && hops < 1<<12; p, hops = parent[p], hops+1 {
			if p == skip || t.before[p] {
				break
			}
			if p == t.root || parent[p] == self {
				out = append(out, pid)
				break
			}
		}
	}
	sort.Ints(out)
	return out
}

// procChildren lists the children of process pid, made by any of its
// threads (/proc/PID/task/TID/children), zombies included. exists is
// false when the process is gone; supported is false when the kernel has
// no such file.
func procChildren(pid int) (kids []int, exists, supported bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil, false, true
	}
	for _, task := range tasks {
		b, err := os.ReadFile(dir + task.Name() + "/children")
		if errors.Is(err, fs.ErrNotExist) {
			if _, serr := os.Stat(dir + task.Name()); serr == nil {
				return nil, true, false // the thread is there, the file is not
			}
			continue // the thread ended
		}
		for _, f := range strings.Fields(string(b)) {
			if kid, err := strconv.Atoi(f); err == nil {
				kids = append(kids, kid)
			}
		}
	}
	return kids, true, true
}

// procParents maps every pid in /proc to its parent.
func procParents() map[int]int {
	out := make(map[int]int)
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(f[1]); err == nil {
			out[pid] = ppid
		}
	}
	return out
}

// BecomeSubreaper makes processes orphaned in the command's tree come
// back to envbisect, which waits for them as the ptrace backend does;
// restore undoes it.
func BecomeSubreaper() (restore func(), err error) {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return nil, fmt.Errorf("become a child subreaper: %w", err)
	}
	return func() { unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0) }, nil
}

// shellStatus returns a wait status as a shell reports it (status, or
// 128+signal) and the signal that ended the process, 0 for none.
func shellStatus(ws unix.WaitStatus) (code, signal int) {
	if sig := int(uint32(ws) & 0x7f); sig != 0 {
		return 128 + sig, sig
	}
	return int(uint32(ws)>>8) & 0xff, 0
}
