package ebpfrec

import (
	"fmt"
	"os"
	"slices"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// readFDTable reads a live process's fds from /proc, those of only (nil:
// all): the helper's table is read before its exec, which leaves the
// command fds 0, 1, 2 and the kept ones only (launch.CommandFDs). From
// then on the table (a systable.FDTable of names) is kept from the
// calls' effects: the ptrace backend asks /proc at each stop, but here
// the process has moved on by the time a record is read.
func readFDTable(pid int, only []int) *systable.FDTable[string] {
	t := systable.NewFDTable[string]()
	for fd, name := range launch.ProcFDs(pid) {
		if only == nil || slices.Contains(only, int(fd)) {
			t.Open(fd, name, false)
		}
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
	launch.CallPaths(row, c, p.cwd, func(fd int32) string { name, _ := p.fds.Get(fd); return name })
	if c.NoReturn || c.Ret < 0 {
		return
	}
	ch := c.FDChange(row)
	if ch.Op != systable.FDKept {
		// A path the call names names the fd it makes; else /proc does,
		// while the process lives (accept's fd is the connection, not
		// the listener its fd argument names). close_range may give the
		// process a table of its own (CLOSE_RANGE_UNSHARE).
		p.fds = p.fds.Apply(ch, func(fd, from int32) string {
			switch {
			case from >= 0:
				name, _ := p.fds.Get(from)
				return name
			case ch.Op == systable.FDMade && row.HasPath():
				return c.Path
			}
			return launch.ProcFD(int(t.tid), fd)
		})
		if made, ok := p.fds.Made(ch); ok && c.Path == "" {
			c.Path = made
		}
	}
	if row.EffectsFor(c.Args)&systable.ChangesCwd != 0 && c.Path != "" {
		p.cwd = c.Path
	}
}
