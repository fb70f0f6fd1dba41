package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/mountinfo"
)

// ErrUnsupported is wrapped by Enter's errors when this machine cannot
// make a sandbox at all: no privilege for a mount namespace, or no
// overlayfs.
var ErrUnsupported = errors.New("sandbox not supported here")

// scratchPoints are directories of the old tree that the run's scratch
// tmpfs may cover while the new tree is built (the first that exists);
// the old tree is detached afterwards.
func scratchPoints() []string { return []string{"/tmp", "/mnt", "/run", "/var/tmp", "/dev"} }

// Enter moves the calling thread into a sandbox built as spec says (see
// the package documentation), with spec.Objects in place (their writes'
// content from contents, which may be nil when no op writes a file), and
// returns what it isolates.
//
// Enter must run on a locked OS thread (runtime.LockOSThread) that is
// then used for nothing else: it changes the thread's mount namespace,
// root and working directory, and on error leaves it in a half-built
// namespace. The caller execs the command (the namespace is the
// command's) or lets the thread end with its goroutine.
func Enter(spec Spec, contents Contents) (*Report, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	cwd, err := unix.Getwd()
	if err != nil {
		return nil, fmt.Errorf("sandbox: working directory: %w", err)
	}
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return nil, fmt.Errorf("sandbox: unshare(CLONE_NEWNS): %w: %w (needs CAP_SYS_ADMIN: run as root)", ErrUnsupported, err)
	}
	if err := enterHostname(spec.Hostname); err != nil {
		return nil, err
	}
	if err := enterNetwork(spec.OwnNetwork, spec.NetNS); err != nil {
		return nil, err
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return nil, fmt.Errorf("sandbox: make mounts private: %w", err)
	}
	f, err := os.Open("/proc/thread-self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w (is /proc mounted?)", err)
	}
	ms, err := mountinfo.Parse(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	rs, err := openReachable(ms)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	defer closeAll(rs)
	var objects *objectState
	if len(spec.Objects) > 0 {
		// Where the objects go, found in the tree as it is: those
		// mounts need a throwaway copy even where the view would share
		// them.
		if objects, err = planObjects(spec.Objects); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		defer objects.close()
	}
	var narrow *narrowPlan
	if spec.Narrow {
		// Where the run writes and its objects go, found in the tree as
		// it is; nil (or a path that cannot be resolved): it cannot be
		// narrowed, and is isolated in full.
		if narrow, err = planNarrow(spec, rs, objects); err != nil {
			narrow = nil
		}
		defer narrow.close()
	}
	persist := make([]int, 0, len(spec.Persist))
	defer func() {
		for _, fd := range persist {
			unix.Close(fd)
		}
	}()
	for _, p := range spec.Persist {
		fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil, fmt.Errorf("sandbox: --persist %s: %w", p, err)
		}
		persist = append(persist, fd)
	}
	socks := openSockets()
	defer closeSockets(socks)
	b, err := newBuilder()
	if err != nil {
		return nil, err
	}
	b.objects = objects
	if narrow != nil {
		b.narrow, b.writable = narrow, spec.Writable
	}
	sortReachable(rs)
	var dirs []dirOverlay
	if b.narrow != nil {
		dirs = b.narrow.dirs
	}
	next := 0 // the directory overlays mounted
	for i, r := range rs {
		// A directory's overlay goes on the mount it is in, and under
		// the mounts below it.
		for ; next < len(dirs) && depth(dirs[next].path) < depth(r.Point); next++ {
			if err := b.mountDirOverlay(len(rs)+next, dirs[next]); err != nil {
				return nil, fmt.Errorf("sandbox: %w", err)
			}
		}
		if err := b.replicate(i, r); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
	}
	for ; next < len(dirs); next++ {
		if err := b.mountDirOverlay(len(rs)+next, dirs[next]); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
	}
	if err := b.bindSockets(socks, b.overlaid); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if objects != nil {
		if err := b.placeKernelFiles(rs, contents); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		if b.narrow != nil {
			if err := b.placeNarrowFiles(rs, contents); err != nil {
				return nil, fmt.Errorf("sandbox: %w", err)
			}
		}
	}
	for i, p := range spec.Persist {
		src := "/proc/self/fd/" + strconv.Itoa(persist[i])
		if err := unix.Mount(src, b.inRoot(p), "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return nil, fmt.Errorf("sandbox: share --persist %s: %w", p, err)
		}
		b.rep.Persisted = append(b.rep.Persisted, p)
		if err := b.track(b.inRoot(p), false, "shared on purpose (--persist "+p+")"); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
	}
	if err := b.pivot(cwd); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if objects != nil {
		// In the new tree, where paths resolve as the command's will.
		if err := objects.applyObjects(contents); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
	}
	if spec.Cwd != "" && spec.Cwd != cwd {
		if err := bindCwd(cwd, spec.Cwd); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
	}
	return &b.rep, nil
}

// sortReachable sorts rs parents before children.
func sortReachable(rs []reachable) {
	ms := make([]Mount, len(rs))
	idx := make(map[int]reachable, len(rs))
	for i, r := range rs {
		ms[i] = r.Mount
		idx[r.ID] = r
	}
	ByDepth(ms)
	for i, m := range ms {
		rs[i] = idx[m.ID]
	}
}

// builder builds the new tree on the run's scratch tmpfs.
type builder struct {
	scratch string // where the scratch tmpfs is mounted in the old tree
	root    string // scratch/root: the new tree
	rep     Report
	// overlaid are the ids of the real mounts that got an overlay.
	overlaid map[int]bool
	// objects, for a materialized run: where its objects go, and the
	// mounts of the new tree they may change.
	objects *objectState
	// narrow, for a narrowed view (Spec.Narrow): the directories that get
	// an overlay of their own and the objects bound as files; writable
	// are Spec.Writable.
	narrow   *narrowPlan
	writable []string
}

// newBuilder mounts the scratch tmpfs.
func newBuilder() (*builder, error) {
	for _, p := range scratchPoints() {
		if st, err := os.Stat(p); err != nil || !st.IsDir() {
			continue
		}
		if err := unix.Mount("envbisect-sandbox", p, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0700"); err != nil {
			return nil, fmt.Errorf("sandbox: mount the scratch tmpfs on %s: %w", p, err)
		}
		b := &builder{scratch: p, root: filepath.Join(p, "root"), overlaid: map[int]bool{}}
		if err := os.Mkdir(b.root, 0o755); err != nil {
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("sandbox: none of %v exists to hold the scratch tmpfs", scratchPoints())
}

// inRoot is where path p of the old tree is in the new one.
func (b *builder) inRoot(p string) string { return filepath.Join(b.root, p) }

// replicate puts mount number i, r, into the new tree.
func (b *builder) replicate(i int, r reachable) error {
	target := b.inRoot(r.Point)
	if _, err := os.Lstat(target); errors.Is(err, os.ErrNotExist) {
		// Its mount point was removed since the table was read (a
		// container's overlay going away as it stops): the new tree
		// shows the real one, so nothing of it is reachable.
		return nil
	}
	if ActionFor(r.Mount) == Bind {
		why := "bound as it is"
		if b.objects != nil && b.objects.on[r.ID] && overlayable(r.Mount) {
			ok, err := b.objectOverlay(i, r, target)
			if ok || err != nil {
				return err
			}
			why = "bound as it is: the kernel refused it an overlay"
		}
		if err := unix.Mount(r.fdPath(), target, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind %s (%s): %w", r.Point, r.FSType, err)
		}
		b.rep.Shared = append(b.rep.Shared, r.Point)
		return b.track(target, false, boundAsIs(r, why))
	}
	if b.narrow != nil {
		return b.replicateNarrow(i, r, target)
	}
	var err error
	if r.isDir {
		err = b.overlay(i, r, target)
	} else {
		err = b.copyFile(i, r, target, mountFlags(r.Options))
	}
	if err == nil {
		b.rep.Overlaid = append(b.rep.Overlaid, r.Point)
		b.overlaid[r.ID] = true
		return b.track(target, true, fmt.Sprintf("an overlay of %s (%s)", r.Point, r.FSType))
	}
	if r.Point == "/" && errors.Is(err, unix.ENODEV) {
		return fmt.Errorf("%w: overlayfs is missing (modprobe overlay): %w", ErrUnsupported, err)
	}
	// The fallback: the real mount, not isolated, and said so.
	if berr := unix.Mount(r.fdPath(), target, "", unix.MS_BIND, ""); berr != nil {
		return fmt.Errorf("%s: %w; binding it instead: %w", r.Point, err, berr)
	}
	b.rep.NotIsolated = append(b.rep.NotIsolated, fmt.Sprintf("%s (%s): %v", r.Point, r.FSType, err))
	return b.track(target, false, boundAsIs(r, fmt.Sprintf("not isolated (%v)", err)))
}

// track records, for a run with objects, the mount just made on target.
func (b *builder) track(target string, throwaway bool, what string) error {
	if b.objects == nil {
		return nil
	}
	return b.objects.track(target, viewMount{throwaway: throwaway, what: what})
}

// overlay mounts an overlay of directory mount r on target, its upper
// and work directories on the scratch.
func (b *builder) overlay(i int, r reachable, target string) error {
	upper := filepath.Join(b.scratch, "u"+strconv.Itoa(i))
	work := filepath.Join(b.scratch, "w"+strconv.Itoa(i))
	for _, d := range []string{upper, work} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return fmt.Errorf("overlay of %s: %w", r.Point, err)
		}
	}
	// The merged root takes the upper root's owner and mode: make them the
	// real root's.
	var st unix.Stat_t
	if err := unix.Fstat(r.fd, &st); err != nil {
		return fmt.Errorf("overlay of %s: stat: %w", r.Point, err)
	}
	if err := unix.Chown(upper, int(st.Uid), int(st.Gid)); err != nil {
		return fmt.Errorf("overlay of %s: %w", r.Point, err)
	}
	if err := unix.Chmod(upper, st.Mode&0o7777); err != nil {
		return fmt.Errorf("overlay of %s: %w", r.Point, err)
	}
	data := "lowerdir=" + r.fdPath() + ",upperdir=" + upper + ",workdir=" + work
	flags := mountFlags(r.Options) &^ unix.MS_RDONLY
	if err := unix.Mount("overlay", target, "overlay", flags, data); err != nil {
		return fmt.Errorf("overlay: %w", err)
	}
	return nil
}

// copyFile isolates a writable mount of a single file: a copy on the
// scratch, with the file's mode and owner, bound on target with flags
// (the real mount's).
func (b *builder) copyFile(i int, r reachable, target string, flags uintptr) error {
	src, err := os.Open(r.fdPath())
	if err != nil {
		return fmt.Errorf("copy of %s: %w", r.Point, err)
	}
	defer src.Close()
	var st unix.Stat_t
	if err := unix.Fstat(int(src.Fd()), &st); err != nil {
		return fmt.Errorf("copy of %s: %w", r.Point, err)
	}
	cp := filepath.Join(b.scratch, "f"+strconv.Itoa(i))
	dst, err := os.OpenFile(cp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("copy of %s: %w", r.Point, err)
	}
	_, err = dst.ReadFrom(src)
	if err == nil {
		err = dst.Chown(int(st.Uid), int(st.Gid))
	}
	if err == nil {
		err = dst.Chmod(os.FileMode(st.Mode & 0o777))
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("copy of %s: %w", r.Point, err)
	}
	if st.Mode&0o7000 != 0 {
		if err := unix.Chmod(cp, st.Mode&0o7777); err != nil {
			return fmt.Errorf("copy of %s: %w", r.Point, err)
		}
	}
	if err := unix.Mount(cp, target, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind the copy of %s: %w", r.Point, err)
	}
	if flags != 0 {
		if err := unix.Mount("", target, "", unix.MS_BIND|unix.MS_REMOUNT|flags, ""); err != nil {
			return fmt.Errorf("flags of the copy of %s: %w", r.Point, err)
		}
	}
	return nil
}

// pivot makes the new tree the root, detaches the old one (the scratch
// goes with it; the overlays keep their layers) and goes back to cwd.
func (b *builder) pivot(cwd string) error {
	if err := unix.Chdir(b.root); err != nil {
		return fmt.Errorf("enter the new tree: %w", err)
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("pivot_root into the new tree: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detach the old tree: %w", err)
	}
	if err := unix.Chdir("/"); err != nil {
		return err
	}
	if err := unix.Chdir(cwd); err != nil {
		return fmt.Errorf("back to the working directory %s: %w", cwd, err)
	}
	return nil
}
