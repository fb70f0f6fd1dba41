package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/envobj"
)

// Narrowed isolation (Spec.Narrow). Every writable mount the view would
// overlay is bound read-only instead: a read there costs what it costs
// natively, where an overlay makes every open and read go through a
// second, backing file. Only where the run writes does it get a throwaway
// overlay, of that directory alone (dirOverlay): the directories of
// Spec.Writable, the directories where an object adds, removes or
// replaces an entry, and where a replayed working directory's mount point
// is made. A file object over a file that is there is a file of the run's
// scratch, bound over it (placeNarrowFiles). A write anywhere else fails
// with EROFS: nothing reaches the real file system either way.

// dirOverlay is a directory of the old tree that gets an overlay of its
// own in a narrowed view.
type dirOverlay struct {
	path string // the directory, symbolic links resolved
	fd   int    // O_PATH on it
	// in is the real mount it is on (its flags are the overlay's).
	in Mount
	// keep, when not nil, are the directory's entries that an object
	// adds, replaces or removes: the directory is overlaid for objects
	// only (the run writes nowhere in it), and every other entry, a
	// regular file or a directory, is bound from the real directory over
	// the overlay, read-only, so that the command meets it natively
	// (bindEntries).
	keep map[string]bool
}

// narrowPlan is Enter's plan of a narrowed view.
type narrowPlan struct {
	dirs []dirOverlay // shallowest first; none under another
	// bind are the ops (by index into the objects) put in place as a
	// file bound over the path, with the path's symbolic links resolved.
	bind map[int]string
	// added are the ops that write a file missing here whose directory
	// is there (by index, with the path in that directory resolved): put
	// in place as a file bound over a placeholder made in the
	// directory's overlay, when the run writes nowhere in it.
	added map[int]string
}

func (p *narrowPlan) close() {
	if p == nil {
		return
	}
	for _, d := range p.dirs {
		unix.Close(d.fd)
	}
	p.dirs = nil
}

// covered reports whether path p is in one of the plan's overlaid
// directories.
func (p *narrowPlan) covered(path string) bool {
	for _, d := range p.dirs {
		if within(path, d.path) {
			return true
		}
	}
	return false
}

// maxNarrowDirs bounds the overlays of a narrowed view: a run that writes
// in more directories than this gets the full isolation.
const maxNarrowDirs = 64

// planNarrow plans the narrowed view of spec in the tree as it is (rs:
// its reachable mounts; st: the objects' landing, or nil). It returns nil
// when the view cannot be narrowed (an object on the root of a mount,
// too many directories): the run is then isolated in full.
func planNarrow(spec Spec, rs []reachable, st *objectState) (*narrowPlan, error) {
	byID := map[int]reachable{}
	for _, r := range rs {
		byID[r.ID] = r
	}
	plan := &narrowPlan{bind: map[int]string{}, added: map[int]string{}}
	var want []string
	for _, w := range spec.Writable {
		want = append(want, w)
	}
	if spec.Cwd != "" {
		if _, err := os.Stat(spec.Cwd); err != nil {
			want = append(want, spec.Cwd) // its mount point is made in the view
		}
	}
	// written are the directories the run writes in, resolved; entries
	// the existing directories where objects add, replace or remove an
	// entry, with the entries' names.
	dirs := map[string]bool{}
	var written []string
	for _, w := range want {
		d, err := existingDir(w)
		if err != nil {
			return nil, err
		}
		dirs[d] = true
		written = append(written, d)
	}
	entries := map[string]map[string]bool{}
	var ops []envobj.Op
	if st != nil {
		ops = st.ops
	}
	for i, op := range ops {
		r, ok := byID[st.landing[i]]
		if !ok || ActionFor(r.Mount) != Overlay {
			continue // bound as it is: handled as in the full view
		}
		if !r.isDir {
			continue // a mount of a single file: copied (replicateNarrow), the op applied in place
		}
		if fileBindable(op, ops, i) {
			// Not where the run writes: it may replace the file there
			// (a rename over it), which a mount point refuses.
			if at, err := filepath.EvalSymlinks(op.Path); err == nil && !writesIn(written, at) {
				plan.bind[i] = at
				continue
			}
		}
		if a, ok := addedFile(op, ops, i); ok && !writesIn(written, a) {
			plan.added[i] = a
		}
		at := op.Path
		if op.Kind == envobj.OpChmod || op.Kind == envobj.OpChown || op.Kind == envobj.OpMtime {
			if t, err := filepath.EvalSymlinks(op.Path); err == nil {
				at = t
			}
		}
		if isMountRoot(at) {
			return nil, nil
		}
		d, name, err := entryOf(at)
		if err != nil {
			return nil, fmt.Errorf("object %s: %w", op, err)
		}
		dirs[d] = true
		if entries[d] == nil {
			entries[d] = map[string]bool{}
		}
		entries[d][name] = true
	}
	var ds []string
	for d := range dirs {
		ds = append(ds, d)
	}
	sort.Slice(ds, func(i, j int) bool {
		return depth(ds[i]) < depth(ds[j]) || depth(ds[i]) == depth(ds[j]) && ds[i] < ds[j]
	})
	for _, d := range ds {
		if plan.covered(d) {
			continue
		}
		fd, err := unix.Open(d, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			plan.close()
			return nil, fmt.Errorf("writable directory %s: %w", d, err)
		}
		id, _, err := mountIDOf(fd)
		r, ok := byID[id]
		if err != nil || !ok || ActionFor(r.Mount) != Overlay {
			// On a mount bound as it is (/dev, a read-only mount) or one
			// the run cannot reach: as in the full view.
			unix.Close(fd)
			continue
		}
		plan.dirs = append(plan.dirs, dirOverlay{path: d, fd: fd, in: r.Mount, keep: keepOf(d, written, entries)})
	}
	if len(plan.dirs) > maxNarrowDirs {
		plan.close()
		return nil, nil
	}
	return plan, nil
}

// fileBindable reports whether op (number i of ops) can be put in place
// as a file bound over its path: it writes a file over a regular file
// that is there, not a mount point, and no other op adds or removes an
// entry at or above its path.
func fileBindable(op envobj.Op, ops []envobj.Op, i int) bool {
	if op.Kind != envobj.OpWrite {
		return false
	}
	var sb unix.Stat_t
	if err := unix.Lstat(op.Path, &sb); err != nil || sb.Mode&unix.S_IFMT != unix.S_IFREG || isMountRoot(op.Path) {
		return false
	}
	for j, o := range ops {
		if j == i {
			continue
		}
		switch o.Kind {
		case envobj.OpChmod, envobj.OpChown, envobj.OpMtime:
			if o.Path == op.Path {
				continue // changes the bound file, a throwaway one
			}
		}
		if within(op.Path, o.Path) {
			return false
		}
	}
	return true
}

// addedFile returns, for an op that writes a file missing here whose
// directory is there, the file's path with the directory resolved; no
// other op may change an entry at or above it.
func addedFile(op envobj.Op, ops []envobj.Op, i int) (string, bool) {
	if op.Kind != envobj.OpWrite {
		return "", false
	}
	if _, err := os.Lstat(op.Path); !errors.Is(err, os.ErrNotExist) {
		return "", false
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(op.Path))
	if err != nil {
		return "", false
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", false
	}
	for j, o := range ops {
		if j == i {
			continue
		}
		switch o.Kind {
		case envobj.OpChmod, envobj.OpChown, envobj.OpMtime:
			if o.Path == op.Path {
				continue // changes the bound file, a throwaway one
			}
		}
		if within(op.Path, o.Path) || within(o.Path, op.Path) {
			return "", false
		}
	}
	return filepath.Join(dir, filepath.Base(op.Path)), true
}

// writesIn reports whether p is in one of the directories written.
func writesIn(written []string, p string) bool {
	for _, w := range written {
		if within(p, w) {
			return true
		}
	}
	return false
}

// isMountRoot reports whether p is the root of a mount (a mount point).
func isMountRoot(p string) bool {
	id, _, err := mountAt(p, false)
	if err != nil {
		return false
	}
	parent, _, err := mountAt(filepath.Dir(p), true)
	return err == nil && id != parent
}

// entryOf returns the entry of an existing directory (resolved) that a
// change of path at adds, replaces or removes: at's own, or that of its
// first missing parent.
func entryOf(at string) (dir, name string, err error) {
	q, name := filepath.Dir(at), filepath.Base(at)
	for q != "/" {
		if fi, err := os.Stat(q); err == nil && fi.IsDir() {
			break
		}
		q, name = filepath.Dir(q), filepath.Base(q)
	}
	dir, err = filepath.EvalSymlinks(q)
	return dir, name, err
}

// keepOf returns dirOverlay.keep for directory d: nil when the run
// writes in it (a directory of written is at or under d), else the
// entries of d that objects change (entries: by existing directory,
// those of it objects change).
func keepOf(d string, written []string, entries map[string]map[string]bool) map[string]bool {
	for _, w := range written {
		if within(w, d) {
			return nil
		}
	}
	keep := map[string]bool{}
	for e, names := range entries {
		switch {
		case e == d:
			for n := range names {
				keep[n] = true
			}
		case within(e, d):
			rel := strings.TrimPrefix(e, strings.TrimSuffix(d, "/")+"/")
			keep[strings.SplitN(rel, "/", 2)[0]] = true
		}
	}
	return keep
}

// existingDir returns the nearest directory at or above p that exists,
// with its symbolic links resolved.
func existingDir(p string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("writable directory %q is not an absolute path", p)
	}
	for q := filepath.Clean(p); ; q = filepath.Dir(q) {
		if fi, err := os.Stat(q); err == nil && fi.IsDir() {
			return filepath.EvalSymlinks(q)
		}
		if q == "/" {
			return "/", nil
		}
	}
}

// replicateNarrow puts r, a mount the full view would overlay, into the
// narrowed view: a mount of a single file the run writes (or an object
// goes on) is copied as in the full view; any other is bound read-only.
func (b *builder) replicateNarrow(i int, r reachable, target string) error {
	if !r.isDir && (b.objects != nil && b.objects.on[r.ID] || b.writes(r.Point)) {
		if err := b.copyFile(i, r, target, mountFlags(r.Options)); err != nil {
			return err
		}
		b.rep.Overlaid = append(b.rep.Overlaid, r.Point)
		b.overlaid[r.ID] = true
		return b.track(target, true, fmt.Sprintf("a copy of %s (%s)", r.Point, r.FSType))
	}
	if err := unix.Mount(r.fdPath(), target, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind %s (%s): %w", r.Point, r.FSType, err)
	}
	if err := unix.Mount("", target, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY|mountFlags(r.Options), ""); err != nil {
		return fmt.Errorf("make the bind of %s (%s) read-only: %w", r.Point, r.FSType, err)
	}
	b.rep.ReadOnly = append(b.rep.ReadOnly, r.Point)
	return b.track(target, false, boundAsIs(r, "bound read-only (the run's isolation is narrowed to where it writes)"))
}

// writes reports whether path p is in a directory the narrowed run
// writes in (Spec.Writable).
func (b *builder) writes(p string) bool { return writesIn(b.writable, p) }

// mountDirOverlay mounts the overlay of directory d in the new tree
// (number n, for its layers' names on the scratch).
func (b *builder) mountDirOverlay(n int, d dirOverlay) error {
	target := b.inRoot(d.path)
	r := reachable{Mount: d.in, fd: d.fd, isDir: true}
	r.Point = d.path
	if err := b.overlay(n, r, target); err != nil {
		return fmt.Errorf("overlay of the directory %s: %w", d.path, err)
	}
	b.rep.Overlaid = append(b.rep.Overlaid, d.path)
	if err := b.track(target, true, fmt.Sprintf("an overlay of the directory %s (%s)", d.path, d.in.FSType)); err != nil {
		return err
	}
	if d.keep != nil {
		return b.bindEntries(d, target)
	}
	return nil
}

// maxBoundEntries bounds the entries bindEntries binds: a directory with
// more is left to its overlay.
const maxBoundEntries = 2000

// bindEntries binds, read-only, every entry of directory d that is a
// regular file or a directory of the same mount and that no object
// changes, from the real directory over d's overlay (on target): the
// command opens and reads them without the overlay's second, backing
// file, and the overlay serves only the entries objects add, replace or
// remove. A directory with more than maxBoundEntries entries is left as
// it is.
func (b *builder) bindEntries(d dirOverlay, target string) error {
	f, err := os.Open("/proc/self/fd/" + strconv.Itoa(d.fd))
	if err != nil {
		return fmt.Errorf("entries of %s: %w", d.path, err)
	}
	names, err := f.Readdirnames(maxBoundEntries + 1)
	f.Close()
	if err != nil || len(names) > maxBoundEntries {
		return nil // left to the overlay
	}
	dirID, _, err := mountIDOf(d.fd)
	if err != nil {
		return fmt.Errorf("entries of %s: %w", d.path, err)
	}
	flags := unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY | mountFlags(d.in.Options)
	for _, n := range names {
		if d.keep[n] {
			continue
		}
		fd, err := unix.Openat(d.fd, n, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			continue // gone since it was listed: the overlay shows what is there
		}
		id, mode, err := mountIDOf(fd)
		if err != nil || id != dirID || mode&unix.S_IFMT != unix.S_IFREG && mode&unix.S_IFMT != unix.S_IFDIR {
			// A mount point (replicated on its own), a link, a socket,
			// a device: met through the overlay.
			unix.Close(fd)
			continue
		}
		at := filepath.Join(target, n)
		err = unix.Mount("/proc/self/fd/"+strconv.Itoa(fd), at, "", unix.MS_BIND, "")
		unix.Close(fd)
		if err == nil {
			err = unix.Mount("", at, "", uintptr(flags), "")
		}
		if err != nil {
			return fmt.Errorf("bind %s over its overlay: %w", filepath.Join(d.path, n), err)
		}
	}
	return nil
}

// entriesBound reports whether p is in a directory overlaid for objects
// only (dirOverlay.keep): the run writes nowhere there.
func (p *narrowPlan) entriesBound(path string) bool {
	for _, d := range p.dirs {
		if within(path, d.path) {
			return d.keep != nil
		}
	}
	return false
}

// placeNarrowFiles puts the plan's file objects in place before the
// pivot: each op's content, owner, mode and modification time in a file
// of the run's scratch, bound over the path with the flags of the mount
// it is on; a file added in a directory overlaid for objects only is
// bound over a placeholder made in the overlay, so that the command
// reads it without the overlay too.
func (b *builder) placeNarrowFiles(rs []reachable, contents Contents) error {
	st := b.objects
	byID := map[int]reachable{}
	for _, r := range rs {
		byID[r.ID] = r
	}
	for i, op := range st.ops {
		at, ok := b.narrow.bind[i]
		if a, added := b.narrow.added[i]; added && b.narrow.entriesBound(a) {
			// The placeholder, in the directory's overlay (its upper
			// layer, on the scratch), for the good file's mount.
			fd, err := unix.Open(b.inRoot(a), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
			if err != nil {
				return fmt.Errorf("object %s: a placeholder for %s in its directory's overlay: %w", op, a, err)
			}
			unix.Close(fd)
			at, ok = a, true
		}
		if !ok {
			continue
		}
		cp := filepath.Join(b.scratch, "n"+strconv.Itoa(i))
		if err := writeContent(cp, op, contents, false); err != nil {
			return fmt.Errorf("object %s: %w", op, err)
		}
		target := b.inRoot(at)
		if err := unix.Mount(cp, target, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("object %s: bind the good file over %s: %w", op, op.Path, err)
		}
		flags := mountFlags(byID[st.landing[i]].Options) &^ unix.MS_RDONLY
		if err := unix.Mount("", target, "", unix.MS_BIND|unix.MS_REMOUNT|flags, ""); err != nil {
			return fmt.Errorf("object %s: flags of the good file over %s: %w", op, op.Path, err)
		}
		if err := st.track(target, viewMount{throwaway: true, what: "the good file bound over " + op.Path}); err != nil {
			return err
		}
		b.rep.ForObjects = append(b.rep.ForObjects, op.Path)
		st.placed[i] = true
	}
	return nil
}
