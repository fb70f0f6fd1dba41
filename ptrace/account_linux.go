package ptrace

import (
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
// completed call did (the fd table's rules are systable's: FDChange),
// and drops the contents of excluded paths. believed, when set, is what
// the program believes the fd the call made refers to, or the directory
// it moved to (a replayed call's recorded path); else /proc says.
func (s *session) applyEffects(t *task, row *systable.Syscall, c *trace.Call, believed string) {
	p := t.proc
	if c.NoReturn || c.Ret < 0 {
		s.content.Apply(row, c)
		return
	}
	ch := c.FDChange(row)
	if ch.Op != systable.FDKept {
		// close_range may give the process a table of its own
		// (CLOSE_RANGE_UNSHARE).
		p.fds = p.fds.Apply(ch, func(fd, from int32) string {
			switch {
			case from >= 0:
				return s.fdPath(t, from)
			case ch.Op == systable.FDMadePair:
				return readFDLink(t.tid, fd)
			}
			return s.madeFDName(t, row, c, believed)
		})
		if made, ok := p.fds.Made(ch); ok && c.Path == "" {
			c.Path = made
		}
	}
	if row.EffectsFor(c.Args)&systable.ChangesCwd != 0 {
		if believed != "" {
			// The program believes it moved there, whatever the kernel
			// did: its relative paths resolve against it.
			p.fs.cwd = believed
		} else if cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", t.tid)); err == nil {
			p.fs.cwd = s.redir.programPath(cwd)
		}
	}
	s.content.Apply(row, c)
}

// madeFDName returns what the fd a call made refers to: the path a
// replayed call recorded (believed), else the path the call names (open;
// a recorded Path also names the fd of a call that names no fd, socket),
// else what /proc says (accept's Path names the listener).
func (s *session) madeFDName(t *task, row *systable.Syscall, c *trace.Call, believed string) string {
	if !row.HasPath() && row.FirstFD(c.Args) >= 0 {
		believed = ""
	}
	name := believed
	if name == "" {
		name = c.Path
	}
	if believed == "" && (!row.HasPath() || name == "") {
		name = s.redir.programPath(readFDLink(t.tid, int32(c.Ret)))
	}
	return name
}

// callPaths sets Path and Path2 (see CallPaths) from t's tables.
func (s *session) callPaths(t *task, row *systable.Syscall, c *trace.Call) {
	launch.CallPaths(row, c, t.proc.fs.cwd, func(fd int32) string { return s.fdPath(t, fd) })
	// A path in the scratch area (the kernel hands an interpreter the
	// script's path as exec'd) is keyed as the program names it.
	c.Path, c.Path2 = s.redir.programPath(c.Path), s.redir.programPath(c.Path2)
}

// fdPath returns what fd refers to in t's process, asking /proc when the
// table does not know (fds inherited or made by calls that do not stop).
func (s *session) fdPath(t *task, fd int32) string {
	if name, ok := t.proc.fds.Get(fd); ok {
		return name
	}
	name := s.redir.programPath(standsFor(readFDLink(t.tid, fd)))
	if name != "" {
		t.proc.fds.Open(fd, name, false)
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
