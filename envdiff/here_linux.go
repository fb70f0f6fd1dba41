package envdiff

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/trace"
)

// rootFS reads paths as a process whose root is root resolves them:
// every lookup starts at root's fd with openat2's RESOLVE_IN_ROOT, so an
// absolute symbolic link inside a container's root leads inside it, never
// to this machine's file of that name. On a kernel without openat2
// (before 5.6) only root "/" can be read, with plain lookups.
type rootFS struct {
	root string
	fd   int
	// base is root with its links followed, as /proc/self/fd shows the
	// paths of what is opened under it; "/" for a root in another mount
	// namespace, whose paths /proc shows as that namespace sees them.
	base string
}

// openRoot opens root ("/" or a /proc/PID/root) for lookups.
func openRoot(root string) (*rootFS, error) {
	fd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open the root %s: %w", root, err)
	}
	base, err := filepath.EvalSymlinks(root)
	if err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("open the root %s: %w", root, err)
	}
	return &rootFS{root: root, fd: fd, base: base}, nil
}

func (r *rootFS) close() error { return unix.Close(r.fd) }

// open opens p (absolute and clean) inside the root with flags; a link
// at its end is followed unless flags hold O_NOFOLLOW.
func (r *rootFS) open(p string, flags int) (int, error) {
	rel := strings.TrimLeft(p, "/")
	if rel == "" {
		rel = "."
	}
	how := &unix.OpenHow{Flags: uint64(flags | unix.O_CLOEXEC), Resolve: unix.RESOLVE_IN_ROOT | unix.RESOLVE_NO_MAGICLINKS}
	for range 8 { // EAGAIN: a rename raced the lookup
		fd, err := unix.Openat2(r.fd, rel, how)
		switch {
		case errors.Is(err, unix.EAGAIN):
			continue
		case errors.Is(err, unix.ENOSYS) && r.root == "/":
			return unix.Open(p, flags|unix.O_CLOEXEC, 0)
		case errors.Is(err, unix.ENOSYS):
			return -1, fmt.Errorf("reading a container's root needs openat2 (Linux 5.6): %w", err)
		}
		return fd, err
	}
	return -1, unix.EAGAIN
}

// missing reports whether err says a path does not exist.
func missing(err error) bool { return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) }

// lstat is p itself here (a link at its end not followed): its type,
// mode, owner, size and mtime, or that it is missing.
func (r *rootFS) lstat(p string) (envobj.State, error) {
	dir, base := path.Split(p)
	var st unix.Stat_t
	if base == "" { // the root itself
		if err := unix.Fstat(r.fd, &st); err != nil {
			return envobj.State{}, fmt.Errorf("stat %s: %w", p, err)
		}
		return fromStat(&st), nil
	}
	dfd, err := r.open(dir, unix.O_PATH|unix.O_DIRECTORY)
	if err == nil {
		defer unix.Close(dfd)
		err = unix.Fstatat(dfd, base, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	switch {
	case missing(err):
		return envobj.State{Known: envobj.Aspects{envobj.AspectExists}}, nil
	case err != nil:
		return envobj.State{}, fmt.Errorf("lstat %s: %w", p, err)
	}
	return fromStat(&st), nil
}

// stat is what p leads to here, links followed inside the root.
func (r *rootFS) stat(p string) (envobj.State, error) {
	fd, err := r.open(p, unix.O_PATH)
	switch {
	case missing(err):
		return envobj.State{Known: envobj.Aspects{envobj.AspectExists}}, nil
	case err != nil:
		return envobj.State{}, fmt.Errorf("stat %s: %w", p, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return envobj.State{}, fmt.Errorf("stat %s: %w", p, err)
	}
	return fromStat(&st), nil
}

// fromStat is a stat here as a State.
func fromStat(st *unix.Stat_t) envobj.State {
	return envobj.State{
		Exists: true, Type: typeOf(st.Mode), Mode: st.Mode & 0o7777, UID: st.Uid, GID: st.Gid,
		Size: st.Size, MtimeNS: st.Mtim.Nano(), Known: statAspects,
	}
}

// readlink is the target of the link p here.
func (r *rootFS) readlink(p string) (string, error) {
	dir, base := path.Split(p)
	dfd, err := r.open(dir, unix.O_PATH|unix.O_DIRECTORY)
	if err != nil {
		return "", fmt.Errorf("readlink %s: %w", p, err)
	}
	defer unix.Close(dfd)
	buf := make([]byte, unix.PathMax)
	n, err := unix.Readlinkat(dfd, base, buf)
	if err != nil {
		return "", fmt.Errorf("readlink %s: %w", p, err)
	}
	return string(buf[:n]), nil
}

// list is the names in the directory p leads to here, sorted, without
// "." and "..".
func (r *rootFS) list(p string) ([]string, error) {
	fd, err := r.open(p, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", p, err)
	}
	f := os.NewFile(uintptr(fd), p)
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", p, err)
	}
	return envobj.SortedEntries(names), nil
}

// hash is the SHA-256 of the regular file p leads to here, read only
// when it still has size bytes (a file that changed since its stat is
// reported as unreadable); n is what was read.
func (r *rootFS) hash(p string, size int64) (h trace.Hash, n int64, err error) {
	fd, err := r.open(p, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY)
	if err != nil {
		return h, 0, fmt.Errorf("hash %s: %w", p, err)
	}
	f := os.NewFile(uintptr(fd), p)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Size != size {
		return h, 0, fmt.Errorf("hash %s: it changed while being inspected", p)
	}
	s := sha256.New()
	n, err = io.Copy(s, io.LimitReader(f, size+1))
	if err != nil {
		return h, n, fmt.Errorf("hash %s: %w", p, err)
	}
	if n != size {
		return h, n, fmt.Errorf("hash %s: it changed while being read", p)
	}
	copy(h[:], s.Sum(nil))
	return h, n, nil
}

// resolve is where p leads here with every link followed inside the
// root, as a path inside it; ok false when it leads nowhere (missing).
func (r *rootFS) resolve(p string) (string, bool, error) {
	fd, err := r.open(p, unix.O_PATH)
	switch {
	case missing(err):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("resolve %s: %w", p, err)
	}
	defer unix.Close(fd)
	abs, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil {
		return "", false, fmt.Errorf("resolve %s: %w", p, err)
	}
	rel, err := filepath.Rel(r.base, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false, fmt.Errorf("resolve %s: %s lies outside the root %s", p, abs, r.root)
	}
	return path.Clean("/" + rel), true, nil
}
