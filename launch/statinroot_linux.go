package launch

import (
	"errors"
	"fmt"
	"os"
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
