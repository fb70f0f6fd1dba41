package ptrace

import (
	"errors"
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// redirects are the creations a semi-replay run made in its scratch area
// because the live call could not make them here, and where the later
// calls on their paths go instead (the path translation PRoot does for a
// whole tree, applied only below these paths). One table serves the whole
// traced tree: a directory that a shell's mkdir made is where its tar
// extracts and its exec runs.
type redirects struct {
	to map[string]string // a path as the program names it (absolute) → its scratch path
	// dir is the run's scratch directory as the command sees the file
	// system; "" until the first creation needs it.
	dir string
	// hostDir is the same directory as envbisect sees it, removed after
	// the run; "" when the run's sandbox takes it away with the run.
	hostDir string
	made    int // creations made in dir so far, for unique names
}

// lookup returns where p, an absolute path as the program names it,
// lives in the scratch area: p's own redirect or its nearest redirected
// ancestor's with the rest appended. With no redirect it costs one check
// of an empty map.
func (rd *redirects) lookup(p string) (string, bool) {
	if len(rd.to) == 0 || !strings.HasPrefix(p, "/") {
		return "", false
	}
	for q := p; ; q = path.Dir(q) {
		if s, ok := rd.to[q]; ok {
			return s + p[len(q):], true
		}
		if q == "/" {
			return "", false
		}
	}
}

// programPath turns a live name that /proc gives (an fd's target, a
// working directory) back into the path the program believes in, when it
// lies in the scratch area.
func (rd *redirects) programPath(live string) string {
	if rd.dir == "" || !strings.HasPrefix(live, rd.dir+"/") {
		return live
	}
	for p, s := range rd.to {
		if live == s || strings.HasPrefix(live, s+"/") {
			return p + live[len(s):]
		}
	}
	return live
}

// cleanup removes the scratch directory the run made outside a sandbox.
func (rd *redirects) cleanup() error {
	if rd.hostDir == "" {
		return nil
	}
	if err := os.RemoveAll(rd.hostDir); err != nil {
		return fmt.Errorf("remove the run's scratch directory: %w", err)
	}
	return nil
}

// pathArgs calls f with the index and the absolute path, as the program
// means it, of each path argument of c that names one (a relative path
// resolved against its dirfd or t's working directory, as the kernel
// would; an empty or unreadable one is left out).
func (s *session) pathArgs(t *task, row *systable.Syscall, c *trace.Call, f func(i int, abs string)) {
	dirfd := int32(unix.AT_FDCWD)
	for i, a := range row.Args {
		switch a.Kind {
		case systable.DirFD:
			dirfd = int32(c.Args[i])
		case systable.Path:
			m := c.MemOf(uint8(i), trace.PartWhole)
			if m != nil && m.Flag&trace.Fault == 0 && len(m.Data) > 0 {
				base := t.proc.fs.cwd
				if dirfd != unix.AT_FDCWD {
					base = s.fdPath(t, dirfd)
				}
				f(i, launch.ResolvePath(base, string(m.Data)))
			}
			dirfd = unix.AT_FDCWD
		}
	}
}

// redirectPaths rewrites, at the entry of a call that is to run, every
// path argument of c that lies under a redirect: the argument register
// then points at the scratch path (absolute, so the dirfd no longer
// matters), written below t's stack. c keeps the program's paths. It
// reports whether it rewrote any. t is stopped at the call's entry.
func (s *session) redirectPaths(t *task, r *regs, row *systable.Syscall, c *trace.Call) (bool, error) {
	if len(s.redir.to) == 0 || row.Unknown {
		return false, nil
	}
	args := sysArgs(r)
	var sc stackScratch
	rewrote := false
	var err error
	s.pathArgs(t, row, c, func(i int, abs string) {
		to, ok := s.redir.lookup(abs)
		if !ok || err != nil {
			return
		}
		if !rewrote {
			sc = newStackScratch(t.tid, r)
		}
		var addr uint64
		if addr, err = sc.putString(to); err == nil {
			args[i], rewrote = addr, true
		}
	})
	if err != nil {
		return false, fmt.Errorf("redirect %s to the scratch area: %w", c.Path, err)
	}
	if !rewrote {
		return false, nil
	}
	replaceCall(r, sysNr(r), args)
	return true, setRegs(t.tid, r)
}

// redirectEnter is the entry of a call of a semi-replay run that the
// Replayer decided about (d): a call that runs and names a path under a
// redirect goes there (redirectPaths); a creation to be overwritten is
// noted for its exit stop, which makes it in the scratch area should it
// fail here; so is an executed rename or link whose source was
// redirected and whose target was not (moveExit).
func (s *session) redirectEnter(t *task, r *regs, row *systable.Syscall, c *trace.Call, d Decision) error {
	if d.Verb == Skip {
		return nil
	}
	rewrote, err := s.redirectPaths(t, r, row, c)
	if err != nil {
		return err
	}
	t.replay.pathArgs = rewrote
	switch {
	case d.Verb == Overwrite:
		t.replay.create, t.replay.creating = s.creationOf(t, row, c, d.Rec)
	case rewrote:
		cr, ok := s.creationOf(t, row, c, nil)
		if _, in := s.redir.lookup(cr.path); ok && !in {
			t.replay.create, t.replay.moving = cr, true
		}
	}
	return nil
}

// redirectExit is the exit stop of a call that ran in a semi-replay run
// (st is what its entry noted), before the Replayer hears of it: the
// program's argument registers come back (the kernel keeps them across a
// call, and the program may rely on that; not after an exec that
// succeeded), a copy into a redirected file
// that failed across file systems is done with sendfile (copyAcross, for
// an overwritten call), and an executed move of a scratch object stays in
// the scratch area (moveExit). c.Ret is the call's live result.
func (s *session) redirectExit(t *task, r *regs, row *systable.Syscall, c *trace.Call, d Decision, st replayState) error {
	// After an exec that succeeded the registers are the new image's:
	// they stay.
	execd := row.EffectsFor(c.Args)&systable.ExecsImage != 0 && c.Ret == 0
	if st.pathArgs && !execd {
		replaceCall(r, int(c.Nr), c.Args)
		if err := setRegs(t.tid, r); err != nil {
			return ignoreGone(err)
		}
	}
	if d.Verb == Overwrite {
		ret, err := s.copyAcross(t, r, row, c, d.Rec)
		if err != nil {
			return err
		}
		c.Ret = ret
	}
	if st.moving {
		return s.moveExit(t, r, row, c, d.Rec, st.create)
	}
	return nil
}

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

// scratchBases are the directories, as the command sees the file system,
// that may hold the run's scratch directory (the first where it can be
// made). In a sandbox every writable one is an overlay whose writes go to
// the run's scratch tmpfs, so the directory goes away with the run.
func scratchBases() []string { return []string{"/tmp", "/var/tmp", "/run"} }

// scratchDir returns the run's scratch directory as the command sees the
// file system, making it on first use: through /proc/PID/root, so it is
// made in the command's own view (its sandbox), with a name of its own
// (envbisect-scratch-PID-random), owned by t's file-system user and group
// (the creations made there run as t), mode 0700.
func (s *session) scratchDir(t *task) (string, error) {
	if s.redir.dir != "" {
		return s.redir.dir, nil
	}
	uid, gid := fsIDs(t.tid)
	var errs []error
	root := "/proc/" + strconv.Itoa(t.tid) + "/root"
	for _, base := range scratchBases() {
		host, err := os.MkdirTemp(root+base, "envbisect-scratch-"+strconv.Itoa(s.root.pid)+"-")
		if err != nil {
			errs = append(errs, err)
			continue
		}
		dir := strings.TrimPrefix(host, root)
		if err := os.Chown(host, uid, gid); err != nil {
			os.Remove(host)
			errs = append(errs, err)
			continue
		}
		s.redir.dir = dir
		if s.cfg.Sandbox == nil {
			s.redir.hostDir = dir // the command sees envbisect's file system
		}
		return dir, nil
	}
	return "", fmt.Errorf("make the run's scratch directory in %v: %w", scratchBases(), errors.Join(errs...))
}

// followLiveCwd sets t's working directory to the kernel's, as the
// program names it (a scratch directory it moved into by its program
// path).
func (s *session) followLiveCwd(t *task) {
	if cwd, err := os.Readlink("/proc/" + strconv.Itoa(t.tid) + "/cwd"); err == nil {
		t.proc.fs.cwd = s.redir.programPath(cwd)
	}
}

// fsIDs returns the file-system user and group ids of thread tid (the
// fourth field of /proc's Uid and Gid lines); 0 when unreadable.
func fsIDs(tid int) (uid, gid int) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(tid) + "/status")
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		f := strings.Fields(v)
		if !ok || len(f) < 4 {
			continue
		}
		n, _ := strconv.Atoi(f[3])
		switch k {
		case "Uid":
			uid = n
		case "Gid":
			gid = n
		}
	}
	return uid, gid
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
