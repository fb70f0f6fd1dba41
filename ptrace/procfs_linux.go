package ptrace

import (
	"fmt"
	"os"
	"strconv"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
)

// readFDLink returns what /proc says fd of tid refers to, or "".
func readFDLink(tid int, fd int32) string { return launch.ProcFD(tid, fd) }

// rereadFDTable returns a new table holding the fds /proc lists for pid
// now, keeping what old knew of those it had, so that only new fds cost
// a readlink. Used after an exec, which closes the close-on-exec fds and
// unshares the table.
func rereadFDTable(old *systable.FDTable[string], pid int) *systable.FDTable[string] {
	n := systable.NewFDTable[string]()
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
		if name, ok := old.Get(int32(fd)); ok {
			n.Open(int32(fd), name, false)
		} else if name, err := os.Readlink(dir + "/" + e); err == nil {
			n.Open(int32(fd), name, false)
		}
	}
	return n
}
