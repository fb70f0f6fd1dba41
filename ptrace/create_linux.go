package ptrace

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// moveExit is the exit stop of an executed rename or link of an object
// that lives in the scratch area to a path that does not: the kernel
// refuses with EXDEV, which no run without envbisect would meet (the
// object could not have been made here at all, and the program's view is
// that it was). The object moves within the scratch area instead, a
// redirect follows it, and the program sees the result of that move.
func (s *session) moveExit(t *task, r *regs, row *systable.Syscall, c, rec *trace.Call, cr creation) error {
	if c.Ret != -int64(unix.EXDEV) {
		return nil
	}
	got, ok, err := s.materialize(t, r, row, c, rec, cr)
	if err != nil || !ok {
		return err
	}
	c.Ret = got
	setRet(r, got)
	return setRegs(t.tid, r)
}

// creation is what the exit stop of a replayed creation needs: the
// argument naming the created path and that path, absolute, as the
// program means it.
type creation struct {
	arg  int
	path string
}

// creationOf returns, at the entry of a call that is to run and then
// show the recorded result rec, the creation to make in the scratch area
// should the live call fail: when the call creates a path and the
// recording (when there is one) succeeded.
func (s *session) creationOf(t *task, row *systable.Syscall, c, rec *trace.Call) (creation, bool) {
	arg := row.CreatedPathArg(c.Args)
	if arg < 0 || (rec != nil && rec.Ret < 0) || row.Unknown {
		return creation{}, false
	}
	cr := creation{arg: -1}
	s.pathArgs(t, row, c, func(i int, abs string) {
		if i == arg {
			cr = creation{arg: i, path: abs}
		}
	})
	return cr, cr.arg >= 0 && strings.HasPrefix(cr.path, "/")
}

// cannotCreateHere reports whether errno says a creation cannot happen
// here (a read-only file system, no permission, a missing or non-directory
// parent, no space; for a rename or link, a source on another file system
// than the target, as is one already in the scratch area), as opposed to
// the object being there already.
func cannotCreateHere(errno int64) bool {
	switch unix.Errno(errno) {
	case unix.EROFS, unix.EACCES, unix.EPERM, unix.ENOENT, unix.ENOTDIR, unix.ENOSPC, unix.EDQUOT, unix.EXDEV:
		return true
	}
	return false
}

// materialize makes, at the exit stop of creation call c that failed
// live where the recording rec (nil: an executed move) succeeded, the same object in the run's
// scratch area: t makes the same call again with the created path
// rewritten to a fresh scratch path. Then later calls on the path go
// there (a redirect), and the Replayer hears of it. It returns the
// injected call's result (the fd an open made) and whether the object
// was made. t is stopped at c's exit with registers r.
func (s *session) materialize(t *task, r *regs, row *systable.Syscall, c, rec *trace.Call, cr creation) (int64, bool, error) {
	if c.Ret >= 0 || !cannotCreateHere(-c.Ret) {
		return 0, false, nil
	}
	if s.cfg.Join != nil {
		// The scratch area would have to be made in the container's file
		// system, whose writes are not the run's own: not done.
		s.warnOnce("a replayed creation failed here inside a container and is not made in a scratch area: later calls on its path fail as they would here")
		return 0, false, nil
	}
	dir, err := s.scratchDir(t)
	if err != nil {
		s.warnOnce(fmt.Sprintf("%v: replayed creations that fail here stay undone", err))
		return 0, false, nil
	}
	s.redir.made++
	to := dir + "/" + strconv.Itoa(s.redir.made) + "-" + path.Base(cr.path)
	// Every path argument is written anew: the stack space the entry
	// stop wrote a redirected source path to (a rename's) is reused.
	sc := newStackScratch(t.tid, r)
	args := sysArgs(r)
	s.pathArgs(t, row, c, func(i int, abs string) {
		p, ok := s.redir.lookup(abs)
		if i == cr.arg {
			p, ok = to, true
		}
		if !ok || err != nil {
			return
		}
		args[i], err = sc.putString(p)
	})
	if err != nil {
		return 0, false, ignoreGone(err)
	}
	ret, err := s.inject(t, r, int(c.Nr), args)
	if err != nil {
		return 0, false, ignoreGone(err)
	}
	if ret < 0 {
		s.warn(fmt.Sprintf("%s %s failed here (%s) and in the scratch area too (%s): later calls on it run here",
			row.Name, cr.path, unix.ErrnoName(unix.Errno(-c.Ret)), unix.ErrnoName(unix.Errno(-ret))))
		return 0, false, nil
	}
	if s.redir.to == nil {
		s.redir.to = make(map[string]string)
	}
	s.redir.to[cr.path] = to
	if o, ok := s.cfg.Replayer.(RedirectObserver); ok {
		var seq uint64
		if rec != nil {
			seq = rec.Seq
		}
		o.Redirected(trace.Redirect{Seq: seq, Syscall: row.Name, Path: cr.path, Scratch: to,
			Errno: unix.ErrnoName(unix.Errno(-c.Ret))})
	}
	return ret, true, nil
}

// maxSendfile is the most sendfile(2) moves in one call.
const maxSendfile = 0x7ffff000

// copyAcross carries out, at the exit stop of a copy between files
// (systable's Copies: copy_file_range) that is to show the recorded
// result and failed live with EXDEV, the same copy with sendfile, which
// copies across file systems: a file the run made in its scratch area is
// on another file system than the one it is copied from, where the
// recording had both on one. Only a copy that moves the destination's
// own offset can be carried out so. It returns the live result to keep.
// t is stopped at c's exit with registers r.
func (s *session) copyAcross(t *task, r *regs, row *systable.Syscall, c, rec *trace.Call) (int64, error) {
	cp := row.Copies
	if cp == nil || c.Ret != -int64(unix.EXDEV) || rec.Ret <= 0 || len(s.redir.to) == 0 || c.Args[cp.OutOff] != 0 {
		return c.Ret, nil
	}
	n := min(c.Args[cp.Len], maxSendfile)
	ret, err := s.inject(t, r, unix.SYS_SENDFILE, [6]uint64{c.Args[cp.Out], c.Args[cp.In], c.Args[cp.InOff], n})
	if err != nil {
		return c.Ret, ignoreGone(err)
	}
	return ret, nil
}
