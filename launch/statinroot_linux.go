package launch

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/sys/unix"
)

// StatInRoot stats path as a process whose root is root resolves it:
// inside root, its symbolic links followed inside root as well (openat2's
// RESOLVE_IN_ROOT; on a kernel without openat2, before 5.6, an absolute
// link is followed from envbisect's own root). root is "/" or a
// /proc/PID/root.
func StatInRoot(root, path string) (*unix.Stat_t, error) {
	rfd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("stat %s in %s: %w", path, root, err)
	}
	defer unix.Close(rfd)
	rel := strings.TrimLeft(path, "/")
	if rel == "" {
		rel = "."
	}
	var st unix.Stat_t
	fd, err := unix.Openat2(rfd, rel, &unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: unix.RESOLVE_IN_ROOT})
	if errors.Is(err, unix.ENOSYS) {
		err = unix.Fstatat(rfd, rel, &st, 0)
	} else if err == nil {
		err = unix.Fstat(fd, &st)
		unix.Close(fd)
	}
	if err != nil {
		return nil, fmt.Errorf("stat %s in %s: %w", path, root, err)
	}
	return &st, nil
}
