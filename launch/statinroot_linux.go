package launch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// StatInRoot stats path as a process whose root is root resolves it:
// inside root, its symbolic links followed inside root as well (openat2's
// RESOLVE_IN_ROOT; on a kernel without openat2, before 5.6, an absolute
// link is followed from envbisect's own root). root is "/" or a
// /proc/PID/root.
func StatInRoot(root, path string) (*unix.Stat_t, error) {
	var st unix.Stat_t
	err := inRoot(root, path, unix.O_PATH, func(fd int) error { return unix.Fstat(fd, &st) },
		func(rfd int, rel string) error { return unix.Fstatat(rfd, rel, &st, 0) })
	if err != nil {
		return nil, fmt.Errorf("stat %s in %s: %w", path, root, err)
	}
	return &st, nil
}

// OpenInRoot opens path for reading as a process whose root is root
// resolves it, as StatInRoot does.
func OpenInRoot(root, path string) (*os.File, error) {
	var f *os.File
	keep := func(fd int) error {
		dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
		if err == nil {
			f = os.NewFile(uintptr(dup), path)
		}
		return err
	}
	err := inRoot(root, path, unix.O_RDONLY, keep, func(rfd int, rel string) error {
		fd, err := unix.Openat(rfd, rel, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err == nil {
			f = os.NewFile(uintptr(fd), path)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("open %s in %s: %w", path, root, err)
	}
	return f, nil
}

// inRoot resolves path inside root and hands use an fd of it opened with
// flags (and O_CLOEXEC); on a kernel without openat2 it calls old with
// root's fd and the relative path instead.
func inRoot(root, path string, flags int, use func(fd int) error, old func(rfd int, rel string) error) error {
	rfd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(rfd)
	rel := strings.TrimLeft(path, "/")
	if rel == "" {
		rel = "."
	}
	fd, err := unix.Openat2(rfd, rel, &unix.OpenHow{Flags: uint64(flags | unix.O_CLOEXEC), Resolve: unix.RESOLVE_IN_ROOT})
	if errors.Is(err, unix.ENOSYS) {
		return old(rfd, rel)
	}
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return use(fd)
}

// ResolveInRoot is path with every symbolic link followed, as a process
// whose root is root resolves it (as StatInRoot does), as a path inside
// root.
func ResolveInRoot(root, path string) (string, error) {
	var resolved string
	fdPath := func(fd int) (string, error) { return os.Readlink("/proc/self/fd/" + strconv.Itoa(fd)) }
	err := inRoot(root, path, unix.O_PATH, func(fd int) error {
		p, err := fdPath(fd)
		resolved = p
		return err
	}, func(rfd int, rel string) error {
		return fmt.Errorf("resolving in a root needs openat2 (Linux 5.6): %w", unix.ENOSYS)
	})
	if err != nil {
		return "", fmt.Errorf("resolve %s in %s: %w", path, root, err)
	}
	if root == "/" {
		return resolved, nil
	}
	// The fd's path is as envbisect's root sees it: take root's own off.
	base, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("resolve %s in %s: %w", path, root, err)
	}
	rel, err := filepath.Rel(base, resolved)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("resolve %s in %s: %s lies outside the root", path, root, resolved)
	}
	return "/" + strings.TrimPrefix(rel, "."), nil
}
