package ptrace

import (
	"fmt"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Serving the good environment's files: a stand-in memfd for a replayed
// call whose recorded file object the trace keeps (Config.Serve) is made
// sealable and executable, and filled with the recorded content before
// the program sees it, so that the calls that execute on it (read, mmap
// by the dynamic loader, fstat) see the good file.

// serves reports whether the stand-in for rec, a recorded call that gave
// the program an fd, is to be filled with the file it opened.
func (s *session) serves(rec *trace.Call) bool {
	if s.cfg.Serve == nil || rec == nil || rec.Obj == 0 || rec.Ret < 0 {
		return false
	}
	_, err := s.cfg.Serve.Servable(rec.Obj)
	return err == nil
}

// standInFlags returns memfd_create's flags for the stand-in of rec made
// by live: close-on-exec as the live call asks, and for a served file
// sealable (serve.Store.Fill seals it) and executable, so that ld.so's
// PROT_EXEC mappings work whatever vm.memfd_noexec says, unless this
// kernel refused MFD_EXEC already.
func (s *session) standInFlags(row *systable.Syscall, live, rec *trace.Call) uint64 {
	flags := uint64(0)
	if row.AsksCloexec(live.Args) {
		flags = unix.MFD_CLOEXEC
	}
	if s.serves(rec) {
		flags |= unix.MFD_ALLOW_SEALING
		if !s.noMFDExec {
			flags |= unix.MFD_EXEC
		}
	}
	return flags
}

// standInFailed notes that a stand-in's memfd_create made with flags
// failed with ret: when it asked for MFD_EXEC and the kernel refused it
// (EINVAL before Linux 6.3; EACCES under vm.memfd_noexec=2), later ones
// do without, and it returns true: the caller may make it again.
func (s *session) standInFailed(flags uint64, ret int64) bool {
	if flags&unix.MFD_EXEC == 0 || s.noMFDExec || (ret != -int64(unix.EINVAL) && ret != -int64(unix.EACCES)) {
		return false
	}
	s.noMFDExec = true
	return true
}

// fillStandIn fills fd, the stand-in memfd thread t holds for rec, with
// the recorded file, sealed against writes when rec opened it for
// reading only. A failure is a warning: the program sees an empty file,
// as it would without serving.
func (s *session) fillStandIn(t *task, fd int64, rec *trace.Call) {
	row := s.table.ByNr(int(rec.Nr))
	if err := s.cfg.Serve.Fill(t.tid, int(fd), rec.Obj, rec.OpensReadOnly(row)); err != nil {
		s.warnOnce(fmt.Sprintf("replayed call %d: %v: the program sees an empty file instead", rec.Seq, err))
	}
}

// injectStandIn has thread t, stopped at the exit of live, make a
// stand-in for rec (filled when served) and returns its fd, or a
// negative errno.
func (s *session) injectStandIn(t *task, r *regs, live, rec *trace.Call) (int64, error) {
	row := s.table.ByNr(int(rec.Nr))
	flags := s.standInFlags(row, live, rec)
	fd, err := s.inject(t, r, nrMemfdCreate, [6]uint64{s.standInName(t, row, live, r), flags})
	if err == nil && fd < 0 && s.standInFailed(flags, fd) {
		flags &^= unix.MFD_EXEC
		fd, err = s.inject(t, r, nrMemfdCreate, [6]uint64{s.standInName(t, row, live, r), flags})
	}
	if err != nil || fd < 0 {
		return fd, err
	}
	if flags&unix.MFD_ALLOW_SEALING != 0 {
		s.fillStandIn(t, fd, rec)
	}
	return fd, nil
}
