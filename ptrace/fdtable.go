package ptrace

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
