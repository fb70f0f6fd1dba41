package ebpfrec

import (
	"encoding/binary"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// fdEntry is what an fd refers to, and whether an exec closes it.
type fdEntry struct {
	name    string
	cloexec bool
}

// fdTable maps a process's fds to what they refer to, kept from the
// calls' effects (the ptrace backend asks /proc at each stop; here the
// process has moved on by the time a record is read).
type fdTable struct{ m map[int32]fdEntry }

func newFDTable() *fdTable { return &fdTable{m: make(map[int32]fdEntry)} }

func (t *fdTable) clone() *fdTable {
	c := newFDTable()
	for k, v := range t.m {
		c.m[k] = v
	}
	return c
}

// exec drops the close-on-exec fds.
func (t *fdTable) exec() {
	for k, v := range t.m {
		if v.cloexec {
			delete(t.m, k)
		}
	}
}

// readFDTable reads a live process's fds from /proc.
func readFDTable(pid int) *fdTable {
	t := newFDTable()
	for fd, name := range launch.ProcFDs(pid) {
		t.m[fd] = fdEntry{name: name}
	}
	return t
}

func readCwd(pid int) string {
	cwd, _ := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pid))
	return cwd
}

// account sets the call's Path and Path2 and keeps the process's fd and
// cwd tables in step with what the call did, as the ptrace backend does.
func (a *assembler) account(t *thread, row *systable.Syscall, c *trace.Call) {
	p := t.proc
	launch.CallPaths(row, c, p.cwd, func(fd int32) string { return p.fds.m[fd].name })
	if c.NoReturn || c.Ret < 0 {
		return
	}
	eff := row.EffectsFor(c.Args)
	switch {
	case eff&systable.DupsFD != 0:
		if old := row.FirstFD(c.Args); old >= 0 {
			p.fds.m[int32(c.Ret)] = fdEntry{name: p.fds.m[old].name, cloexec: row.AsksCloexec(c.Args)}
		}
	case eff&systable.CreatesFD != 0:
		fd := int32(c.Ret)
		// A path the call names names the fd; else /proc does, while
		// the process lives (accept's fd is the connection, not the
		// listener its fd argument names).
		name := c.Path
		if !row.HasPath() {
			name = launch.ProcFD(int(t.tid), fd)
		}
		p.fds.m[fd] = fdEntry{name: name, cloexec: row.AsksCloexec(c.Args)}
		if c.Path == "" {
			c.Path = name
		}
	}
	if eff&systable.CreatesFDPair != 0 {
		for _, m := range c.Mem {
			if m.Dir == trace.Out && len(m.Data) == 8 {
				cloexec := row.AsksCloexec(c.Args)
				for _, fd := range []int32{int32(binary.LittleEndian.Uint32(m.Data)), int32(binary.LittleEndian.Uint32(m.Data[4:]))} {
					p.fds.m[fd] = fdEntry{name: launch.ProcFD(int(t.tid), fd), cloexec: cloexec}
				}
				if c.Path == "" {
					c.Path = p.fds.m[int32(binary.LittleEndian.Uint32(m.Data))].name
				}
				break
			}
		}
	}
	if eff&systable.ClosesFD != 0 {
		if fd := row.FirstFD(c.Args); fd >= 0 {
			delete(p.fds.m, fd)
		}
	}
	if eff&systable.ClosesFDRange != 0 {
		// close_range(first, last, flags)
		first, last, flags := uint32(c.Args[0]), uint32(c.Args[1]), c.Args[2]
		for fd, e := range p.fds.m {
			if uint32(fd) >= first && uint32(fd) <= last {
				if flags&unix.CLOSE_RANGE_CLOEXEC != 0 {
					e.cloexec = true
					p.fds.m[fd] = e
				} else {
					delete(p.fds.m, fd)
				}
			}
		}
	}
	if eff&systable.ChangesCwd != 0 && c.Path != "" {
		p.cwd = c.Path
	}
}
