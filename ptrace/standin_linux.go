package ptrace

import (
	"fmt"
	"os"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// metStandIn tells the Replayer, when it is a StandInObserver, that c,
// a call that ran with its live results shown to the program (d.Verb
// Execute), returned 0 or failed on a stand-in fd. Only such calls cost
// a readlink of their fd.
func (s *session) metStandIn(t *task, row *systable.Syscall, c *trace.Call, d Decision) {
	o, ok := s.cfg.Replayer.(StandInObserver)
	if !ok || d.Verb != Execute || c.Ret > 0 || row.Unknown {
		return
	}
	fd := row.FirstFD(c.Args)
	if fd < 0 {
		return
	}
	believed, _ := t.proc.fds.Get(fd)
	standsFor, ok := standInLink(readFDLink(t.tid, fd), believed)
	if !ok {
		return
	}
	si := StandIn{FD: fd, For: standsFor, Size: -1}
	if fi, err := os.Stat(fmt.Sprintf("/proc/%d/fd/%d", t.tid, fd)); err == nil {
		si.Size = fi.Size()
	}
	o.MetStandIn(c, d, si)
}
