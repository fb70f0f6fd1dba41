package ptrace

import (
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

// followLiveCwd sets t's working directory to the kernel's, as the
// program names it (a scratch directory it moved into by its program
// path).
func (s *session) followLiveCwd(t *task) {
	if cwd, err := os.Readlink("/proc/" + strconv.Itoa(t.tid) + "/cwd"); err == nil {
		t.proc.fs.cwd = s.redir.programPath(cwd)
	}
}
