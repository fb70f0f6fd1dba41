package ptrace

import (
	"encoding/binary"
	"fmt"
	"os"
	"strings"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// account fills in the paths a completed call names or uses, keeps the
// process's fd and cwd tables in step with the call's effects, and drops
// the contents of excluded paths. It runs at the call's exit stop.
func (s *session) account(t *task, row *systable.Syscall, c *trace.Call) {
	if row.Unknown {
		return
	}
	s.callPaths(t, row, c)
	s.applyEffects(t, row, c, "")
}

// applyEffects keeps the process's fd and cwd tables in step with what a
// completed call did, and drops the contents of excluded paths. believed,
// when set, is what the program believes the fd the call made refers to,
// or the directory it moved to (a replayed call's recorded path); else
// /proc says.
func (s *session) applyEffects(t *task, row *systable.Syscall, c *trace.Call, believed string) {
	p := t.proc
	if c.NoReturn || c.Ret < 0 {
		s.content.Apply(row, c)
		return
	}
	eff := row.EffectsFor(c.Args)
	switch {
	case eff&systable.DupsFD != 0:
		if old := row.FirstFD(c.Args); old >= 0 {
			p.fds.m[int32(c.Ret)] = s.fdPath(t, old)
		}
	case eff&systable.CreatesFD != 0:
		fd := int32(c.Ret)
		// A recorded Path names the made fd when the call names a path
		// (open) or no fd (socket); accept's names the listener.
		if !row.HasPath() && row.FirstFD(c.Args) >= 0 {
			believed = ""
		}
		name := believed
		if name == "" {
			name = c.Path
		}
		if believed == "" && (!row.HasPath() || name == "") {
			name = readFDLink(t.tid, fd)
		}
		p.fds.m[fd] = name
		if c.Path == "" {
			c.Path = name
		}
	}
	if eff&systable.CreatesFDPair != 0 {
		for i := range c.Mem {
			m := &c.Mem[i]
			if m.Dir == trace.Out && len(m.Data) == 8 {
				for _, fd := range []int32{int32(binary.LittleEndian.Uint32(m.Data)), int32(binary.LittleEndian.Uint32(m.Data[4:]))} {
					p.fds.m[fd] = readFDLink(t.tid, fd)
				}
				if c.Path == "" {
					c.Path = p.fds.m[int32(binary.LittleEndian.Uint32(m.Data))]
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
		// close_range(first, last, flags): CLOSE_RANGE_CLOEXEC only marks
		// them; either way /proc has the truth after the call. Update in
		// place: processes sharing the table (CLONE_FILES) see it too.
		*p.fds = *readFDTable(p.pid)
	}
	if eff&systable.ChangesCwd != 0 {
		if believed != "" {
			// The program believes it moved there, whatever the kernel
			// did: its relative paths resolve against it.
			p.fs.cwd = believed
		} else if cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", t.tid)); err == nil {
			p.fs.cwd = cwd
		}
	}
	s.content.Apply(row, c)
}

// callPaths sets Path and Path2 (see CallPaths) from t's tables.
func (s *session) callPaths(t *task, row *systable.Syscall, c *trace.Call) {
	launch.CallPaths(row, c, t.proc.fs.cwd, func(fd int32) string { return s.fdPath(t, fd) })
}

// fdPath returns what fd refers to in t's process, asking /proc when the
// table does not know (fds inherited or made by calls that do not stop).
func (s *session) fdPath(t *task, fd int32) string {
	if name, ok := t.proc.fds.m[fd]; ok {
		return name
	}
	name := standsFor(readFDLink(t.tid, fd))
	if name != "" {
		t.proc.fds.m[fd] = name
	}
	return name
}

// standsFor returns what a replay stand-in fd stands for, given what
// /proc says it is: a stand-in for an open is a memfd named after the
// path ("/memfd:/etc/app.conf (deleted)"), which is what the program
// believes the fd is. Other names come back as they are. The table
// normally knows the stand-ins already; /proc is asked when threads
// sharing the table raced (a close seen after a later open reused the
// number).
func standsFor(link string) string {
	name, ok := strings.CutPrefix(link, "/memfd:")
	if !ok {
		return link
	}
	name = strings.TrimSuffix(name, " (deleted)")
	if strings.HasPrefix(name, "/") {
		return name
	}
	return link
}
