package ptrace

import (
	"fmt"
	"os"
	"strconv"

	"github.com/envbisect/envbisect/launch"
)

// readFDLink returns what /proc says fd of tid refers to, or "".
func readFDLink(tid int, fd int32) string { return launch.ProcFD(tid, fd) }

// readFDTable reads a process's open fds from /proc.
func readFDTable(pid int) *fdTable { return &fdTable{m: launch.ProcFDs(pid)} }

// reread returns a new table holding the fds /proc lists for pid now,
// keeping what t knew of those it had, so that only new fds cost a
// readlink. Used after an exec, which closes the close-on-exec fds.
func (t *fdTable) reread(pid int) *fdTable {
	n := newFDTable()
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	f, err := os.Open(dir)
	if err != nil {
		return n
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	for _, e := range names {
		fd, err := strconv.Atoi(e)
		if err != nil {
			continue
		}
		if name, ok := t.m[int32(fd)]; ok {
			n.m[int32(fd)] = name
		} else if name, err := os.Readlink(dir + "/" + e); err == nil {
			n.m[int32(fd)] = name
		}
	}
	return n
}
