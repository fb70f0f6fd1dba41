package tracer

import (
	"path"
	"strings"

	"golang.org/x/sys/unix"
)

// atFDCWD is the dirfd that means "the current directory".
const atFDCWD = unix.AT_FDCWD

// fdTable maps a process's fds to what they refer to: an absolute path,
// or the kernel's name for an anonymous object ("pipe:[1234]"). Processes
// created with CLONE_FILES share one table.
type fdTable struct {
	m map[int32]string
}

func newFDTable() *fdTable { return &fdTable{m: make(map[int32]string)} }

func (t *fdTable) clone() *fdTable {
	c := newFDTable()
	for k, v := range t.m {
		c.m[k] = v
	}
	return c
}

// fsState is a process's working directory. Processes created with
// CLONE_FS share one.
type fsState struct {
	cwd string
}

// resolvePath makes p absolute: against base when it is relative. The
// result is cleaned lexically (symlinks are not followed: the trace names
// what the program asked for).
func resolvePath(base, p string) string {
	if p == "" {
		return base
	}
	if strings.HasPrefix(p, "/") {
		return path.Clean(p)
	}
	if base == "" {
		return p
	}
	return path.Join(base, p)
}
