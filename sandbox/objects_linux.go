package sandbox

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/trace"
)

// Objects of a materialized run (Spec.Objects). Enter finds, before it
// builds anything, the mount each object's change lands on (landing);
// a mount the view would bind as it is (read-only, or in /dev) gets an
// overlay for them instead (objectOverlay), made read-only again once
// they are in place; a file of a kernel file system (/proc, /sys) that an
// OpWrite replaces gets a file of the run's scratch bound over it
// (placeKernelFiles). After the pivot the operations are applied in
// order (applyObjects), each only once the mount it lands on is known to
// be one of the run's throwaway copies: nothing is ever written to the
// real file system, whatever the operations or the mounts.

// viewMount is what Enter knows of a mount it made in the new tree.
type viewMount struct {
	throwaway bool   // an overlay or a copy of the run's: writes there are lost with the run
	what      string // for messages: "/proc (proc), bound as it is"
}

// objectState is Enter's bookkeeping for Spec.Objects.
type objectState struct {
	ops []envobj.Op
	// landing is, per op, the id (in the real mount table) of the mount
	// its change lands on.
	landing []int
	// on are the real mounts some op lands on.
	on map[int]bool
	// mounts are the mounts made in the new tree, by their new ids.
	mounts map[int]viewMount
	// readOnly are the overlays of read-only mounts, to make read-only
	// once the objects are in place.
	readOnly []readOnlyMount
	// placed are the ops placeKernelFiles already carried out.
	placed map[int]bool
}

type readOnlyMount struct {
	fd    int // O_PATH on the overlay's root
	point string
	flags uintptr
}

// planObjects finds where each of ops lands in the tree as it is now
// (Enter's, before the view is built).
func planObjects(ops []envobj.Op) (*objectState, error) {
	st := &objectState{ops: ops, on: map[int]bool{}, mounts: map[int]viewMount{}, placed: map[int]bool{}}
	for _, op := range ops {
		id, _, err := landing(op)
		if err != nil {
			return nil, fmt.Errorf("object %s: %w", op, err)
		}
		st.landing = append(st.landing, id)
		st.on[id] = true
	}
	return st, nil
}

// close releases the descriptors the state holds.
func (st *objectState) close() {
	if st == nil {
		return
	}
	for _, r := range st.readOnly {
		unix.Close(r.fd)
	}
	st.readOnly = nil
}

// landing returns the mount op's change lands on, by its id, and the
// path that decided it: the path op changes, or, for a path that is not
// there yet, its nearest ancestor that is (where it and its missing
// parents are made). A chmod, chown or mtime follows a symbolic link at
// the path, as the system calls do; the others act on the link itself.
func landing(op envobj.Op) (id int, at string, err error) {
	follow := op.Kind == envobj.OpChmod || op.Kind == envobj.OpChown || op.Kind == envobj.OpMtime
	for p := op.Path; ; p = filepath.Dir(p) {
		flags := unix.O_PATH | unix.O_CLOEXEC
		if p == op.Path && !follow {
			flags |= unix.O_NOFOLLOW
		}
		fd, err := unix.Open(p, flags, 0)
		switch {
		case err == nil:
			id, _, err := mountIDOf(fd)
			unix.Close(fd)
			if err != nil {
				return 0, p, fmt.Errorf("mount of %s: %w", p, err)
			}
			return id, p, nil
		case (err == unix.ENOENT || err == unix.ENOTDIR) && p != "/":
			continue
		default:
			return 0, p, fmt.Errorf("%s: %w", p, err)
		}
	}
}

// overlayable reports whether a mount bound as it is can get an overlay
// for objects: not a kernel interface (devtmpfs is storage, and /dev is
// where it is).
func overlayable(m Mount) bool { return !isPseudoFS(m.FSType) || m.FSType == "devtmpfs" }

// track records the mount now on target in the new tree.
func (st *objectState) track(target string, m viewMount) error {
	fd, err := unix.Open(target, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("the new mount on %s: %w", target, err)
	}
	defer unix.Close(fd)
	id, _, err := mountIDOf(fd)
	if err != nil {
		return fmt.Errorf("the new mount on %s: %w", target, err)
	}
	st.mounts[id] = m
	return nil
}

// describe says what mount id of the view is, for an error.
func (st *objectState) describe(id int) string {
	if m, ok := st.mounts[id]; ok {
		return m.what
	}
	return fmt.Sprintf("mount %d, not one the run made", id)
}

// objectOverlay gives r, a mount the view would bind as it is, an
// overlay (a copy, for a file) because objects go there; false when it
// cannot have one, and it is bound as it is.
func (b *builder) objectOverlay(i int, r reachable, target string) (bool, error) {
	st := b.objects
	var err error
	if r.isDir {
		err = b.overlay(i, r, target)
	} else {
		err = b.copyFile(i, r, target, mountFlags(r.Options)&^unix.MS_RDONLY)
	}
	if err != nil {
		return false, nil
	}
	if err := st.track(target, viewMount{throwaway: true, what: fmt.Sprintf("an overlay of %s (%s)", r.Point, r.FSType)}); err != nil {
		return true, err
	}
	if r.ReadOnly() {
		fd, err := unix.Open(target, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return true, fmt.Errorf("overlay of %s: %w", r.Point, err)
		}
		st.readOnly = append(st.readOnly, readOnlyMount{fd: fd, point: r.Point, flags: mountFlags(r.Options) | unix.MS_RDONLY})
	}
	b.rep.ForObjects = append(b.rep.ForObjects, r.Point)
	return true, nil
}

// boundAsIs says why a mount was bound as it is, for the objects that
// land there.
func boundAsIs(r reachable, why string) string {
	return fmt.Sprintf("%s (%s), %s", r.Point, r.FSType, why)
}

// placeKernelFiles carries out, before the pivot, the writes that land
// on a kernel file system bound as it is (a tunable under /proc/sys, a
// value under /sys): the good content goes into a file of the run's
// scratch, which is bound over the path with the mount's flags. Any
// other change there cannot be made, and fails.
func (b *builder) placeKernelFiles(rs []reachable, contents Contents) error {
	st := b.objects
	byID := map[int]reachable{}
	for _, r := range rs {
		byID[r.ID] = r
	}
	for i, op := range st.ops {
		r, ok := byID[st.landing[i]]
		if !ok || ActionFor(r.Mount) != Bind || overlayable(r.Mount) {
			continue
		}
		if op.Kind != envobj.OpWrite {
			return fmt.Errorf("object %s: %s is on %s, a kernel file system, where a run can put only a file's content in place", op, op.Path, boundAsIs(r, "bound as it is"))
		}
		at, err := filepath.EvalSymlinks(op.Path)
		if err != nil {
			return fmt.Errorf("object %s: %s is on %s, a kernel file system, where a run makes no file: %w", op, op.Path, boundAsIs(r, "bound as it is"), err)
		}
		var sb unix.Stat_t
		if err := unix.Stat(at, &sb); err != nil || sb.Mode&unix.S_IFMT != unix.S_IFREG {
			return fmt.Errorf("object %s: %s is on %s, a kernel file system, where a run replaces only a file that is there", op, op.Path, boundAsIs(r, "bound as it is"))
		}
		cp := filepath.Join(b.scratch, "o"+strconv.Itoa(i))
		if err := writeContent(cp, op, contents, false); err != nil {
			return fmt.Errorf("object %s: %w", op, err)
		}
		target := b.inRoot(at)
		if err := unix.Mount(cp, target, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("object %s: bind the good content over %s: %w", op, at, err)
		}
		if f := mountFlags(r.Options); f != 0 {
			if err := unix.Mount("", target, "", unix.MS_BIND|unix.MS_REMOUNT|f, ""); err != nil {
				return fmt.Errorf("object %s: flags of the good content over %s: %w", op, at, err)
			}
		}
		if err := st.track(target, viewMount{throwaway: true, what: "the good content bound over " + at}); err != nil {
			return err
		}
		st.placed[i] = true
	}
	return nil
}

// applyObjects applies the objects in order, in the new tree (after the
// pivot, so that paths resolve as the command's will), and then makes
// the overlays of read-only mounts read-only again.
func (st *objectState) applyObjects(contents Contents) error {
	a := applier{st: st, contents: contents, dirs: dirOps(st.ops)}
	for i, op := range st.ops {
		if st.placed[i] {
			continue
		}
		if err := a.apply(op); err != nil {
			return fmt.Errorf("object %s: %w", op, err)
		}
	}
	for _, r := range st.readOnly {
		err := unix.Mount("", "/proc/self/fd/"+strconv.Itoa(r.fd), "", unix.MS_BIND|unix.MS_REMOUNT|r.flags, "")
		if err != nil {
			err = unix.Mount("", r.point, "", unix.MS_BIND|unix.MS_REMOUNT|r.flags, "")
		}
		if err != nil {
			return fmt.Errorf("make the overlay of %s read-only again: %w", r.point, err)
		}
	}
	return nil
}

// applier applies one object after the other.
type applier struct {
	st       *objectState
	contents Contents
	dirs     map[string]envobj.Op // the OpMkdir ops, for missing parents
}

// mountAt returns the id of the mount path p is on, following a
// symbolic link at p or not.
func mountAt(p string, follow bool) (int, uint32, error) {
	flags := unix.O_PATH | unix.O_CLOEXEC
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Open(p, flags, 0)
	if err != nil {
		return 0, 0, err
	}
	defer unix.Close(fd)
	return mountIDOf(fd)
}

// throwaway returns an error unless mount id is one of the run's
// throwaway copies.
func (a *applier) throwaway(id int, at string) error {
	if m, ok := a.st.mounts[id]; ok && m.throwaway {
		return nil
	}
	return fmt.Errorf("%s is on %s: a run changes only its throwaway copies of the file system", at, a.st.describe(id))
}

func (a *applier) apply(op envobj.Op) error {
	id, at, err := landing(op)
	if err != nil {
		return err
	}
	if err := a.throwaway(id, at); err != nil {
		return err
	}
	p := op.Path
	switch op.Kind {
	case envobj.OpWrite:
		if err := a.ensureDir(filepath.Dir(p)); err != nil {
			return err
		}
		inPlace, err := a.isFileMount(p)
		if err != nil {
			return err
		}
		if !inPlace {
			if err := a.removeTree(p); err != nil {
				return err
			}
		}
		return writeContent(p, op, a.contents, inPlace)
	case envobj.OpMkdir:
		if err := a.ensureDir(filepath.Dir(p)); err != nil {
			return err
		}
		var sb unix.Stat_t
		if err := unix.Lstat(p, &sb); err == nil && sb.Mode&unix.S_IFMT == unix.S_IFDIR {
			return setOwnerMode(p, op.UID, op.GID, op.Mode)
		}
		if err := a.removeTree(p); err != nil {
			return err
		}
		return makeDir(p, op)
	case envobj.OpSymlink:
		if err := a.ensureDir(filepath.Dir(p)); err != nil {
			return err
		}
		if err := a.removeTree(p); err != nil {
			return err
		}
		return unix.Symlink(op.Target, p)
	case envobj.OpRemove:
		return a.removeTree(p)
	case envobj.OpChmod:
		return unix.Chmod(p, op.Mode&0o7777)
	case envobj.OpChown:
		var sb unix.Stat_t
		if err := unix.Stat(p, &sb); err != nil {
			return err
		}
		if err := unix.Chown(p, int(op.UID), int(op.GID)); err != nil {
			return err
		}
		if sb.Mode&unix.S_IFMT != unix.S_IFDIR && sb.Mode&0o6000 != 0 {
			// chown cleared the set-id bits: the object's mode is not
			// what this op is about.
			return unix.Chmod(p, sb.Mode&0o7777)
		}
		return nil
	case envobj.OpMtime:
		return unix.UtimesNanoAt(unix.AT_FDCWD, p, []unix.Timespec{{Nsec: unix.UTIME_OMIT}, unix.NsecToTimespec(op.MtimeNS)}, 0)
	}
	return fmt.Errorf("unknown operation %q", op.Kind)
}

// isFileMount reports whether p is a regular file mounted on its own (a
// container's /etc/hosts): a write replaces its content in place, since
// a mount point cannot be removed.
func (a *applier) isFileMount(p string) (bool, error) {
	id, mode, err := mountAt(p, false)
	if errors.Is(err, unix.ENOENT) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	parent, _, err := mountAt(filepath.Dir(p), true)
	if err != nil {
		return false, err
	}
	return id != parent && mode&unix.S_IFMT == unix.S_IFREG, nil
}

// ensureDir makes directory p and its missing parents, each as the
// OpMkdir for it says, or root's 0755.
func (a *applier) ensureDir(p string) error {
	var sb unix.Stat_t
	err := unix.Stat(p, &sb)
	switch {
	case err == nil && sb.Mode&unix.S_IFMT == unix.S_IFDIR:
		return nil
	case err == nil:
		return fmt.Errorf("parent %s is not a directory", p)
	case err != unix.ENOENT:
		return fmt.Errorf("parent %s: %w", p, err)
	}
	if err := a.ensureDir(filepath.Dir(p)); err != nil {
		return err
	}
	d, ok := a.dirs[p]
	if !ok {
		d = defaultDir(p)
	}
	return makeDir(p, d)
}

// makeDir makes directory p with d's mode and owner.
func makeDir(p string, d envobj.Op) error {
	if err := unix.Mkdir(p, 0o700); err != nil {
		return fmt.Errorf("mkdir %s: %w", p, err)
	}
	return setOwnerMode(p, d.UID, d.GID, d.Mode)
}

// setOwnerMode sets p's owner, then its mode (a chown clears set-id
// bits).
func setOwnerMode(p string, uid, gid, mode uint32) error {
	if err := unix.Lchown(p, int(uid), int(gid)); err != nil {
		return fmt.Errorf("chown %s: %w", p, err)
	}
	if err := unix.Chmod(p, mode&0o7777); err != nil {
		return fmt.Errorf("chmod %s: %w", p, err)
	}
	return nil
}

// removeTree removes p, a directory with what it holds, in the view; in
// an overlay the kernel leaves whiteouts that hide the lower layer's
// entries. It refuses before touching anything on a mount that is not a
// throwaway copy of the run's, and a mount point at or under p (which no
// removal can hide). A missing p is nothing to do.
func (a *applier) removeTree(p string) error {
	parent, _, err := mountAt(filepath.Dir(p), true)
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Dir(p), err)
	}
	return a.remove(p, parent)
}

func (a *applier) remove(p string, parent int) error {
	id, mode, err := mountAt(p, false)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	if err := a.throwaway(id, p); err != nil {
		return err
	}
	if id != parent {
		return fmt.Errorf("%s is a mount point (%s): it cannot be removed from the view", p, a.st.describe(id))
	}
	if mode&unix.S_IFMT != unix.S_IFDIR {
		if err := unix.Unlink(p); err != nil {
			return fmt.Errorf("remove %s: %w", p, err)
		}
		return nil
	}
	ents, err := os.ReadDir(p)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if err := a.remove(filepath.Join(p, e.Name()), id); err != nil {
			return err
		}
	}
	if err := unix.Rmdir(p); err != nil {
		return fmt.Errorf("remove %s: %w", p, err)
	}
	return nil
}

// writeContent writes op's content into p, a new file (inPlace: one
// that is there, truncated), with op's owner, mode and modification
// time, checking the bytes against op's hash.
func writeContent(p string, op envobj.Op, contents Contents, inPlace bool) error {
	if contents == nil {
		return fmt.Errorf("write %s: the run was given no contents", p)
	}
	rc, err := contents.OpenHash(op.Content)
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	defer rc.Close()
	flags := os.O_WRONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	if inPlace {
		flags |= os.O_TRUNC
	} else {
		flags |= os.O_CREATE | os.O_EXCL
	}
	f, err := os.OpenFile(p, flags, 0o600)
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	sum := sha256.New()
	_, err = io.Copy(f, io.TeeReader(rc, sum))
	if err == nil && trace.Hash(sum.Sum(nil)) != op.Content {
		err = fmt.Errorf("its content does not match its SHA-256 %x", op.Content[:6])
	}
	if err == nil {
		err = f.Chown(int(op.UID), int(op.GID))
	}
	if err == nil {
		err = unix.Fchmod(int(f.Fd()), op.Mode&0o7777)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && op.MtimeNS != 0 {
		err = unix.UtimesNanoAt(unix.AT_FDCWD, p, []unix.Timespec{{Nsec: unix.UTIME_OMIT}, unix.NsecToTimespec(op.MtimeNS)}, unix.AT_SYMLINK_NOFOLLOW)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}
