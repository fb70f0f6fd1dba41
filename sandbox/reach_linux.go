package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// reachable is a mount the process can reach, held open so that the
// sandbox can use it after the old tree is covered.
type reachable struct {
	Mount
	fd    int  // O_PATH, on the root of the mount
	isDir bool // a directory (else a file bind-mounted on a file)
}

// fdPath names the mount through its descriptor, for mount(2) and
// overlayfs options.
func (r reachable) fdPath() string { return "/proc/self/fd/" + strconv.Itoa(r.fd) }

// openReachable opens every mount of ms that its mount point resolves to;
// mounts hidden under a later mount on the same point (or under one of
// their parents) are left out. The caller closes the descriptors.
func openReachable(ms []Mount) ([]reachable, error) {
	var out []reachable
	for _, m := range ms {
		if m.FSType == "autofs" {
			continue // opening it would trigger the automount
		}
		fd, err := unix.Open(m.Point, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			continue // gone, or a mount point that no longer resolves (deleted)
		}
		id, mode, err := mountIDOf(fd)
		if err != nil {
			unix.Close(fd)
			closeAll(out)
			return nil, fmt.Errorf("mount id of %s: %w", m.Point, err)
		}
		if id != m.ID {
			unix.Close(fd) // hidden: another mount is on top
			continue
		}
		out = append(out, reachable{Mount: m, fd: fd, isDir: mode&unix.S_IFMT == unix.S_IFDIR})
	}
	return out, nil
}

// mountIDOf returns the id of the mount fd is on (as mountinfo numbers
// it) and the file's mode.
func mountIDOf(fd int) (int, uint32, error) {
	var st unix.Statx_t
	if err := unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_MNT_ID|unix.STATX_TYPE|unix.STATX_MODE, &st); err != nil {
		return 0, 0, err
	}
	if st.Mask&unix.STATX_MNT_ID != 0 {
		return int(st.Mnt_id), uint32(st.Mode), nil
	}
	// Before Linux 5.8: the mnt_id line of fdinfo.
	b, err := os.ReadFile("/proc/self/fdinfo/" + strconv.Itoa(fd))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("mnt_id:")); ok {
			id, err := strconv.Atoi(string(bytes.TrimSpace(v)))
			return id, uint32(st.Mode), err
		}
	}
	return 0, 0, fmt.Errorf("no mnt_id in fdinfo")
}

func closeAll(rs []reachable) {
	for _, r := range rs {
		unix.Close(r.fd)
	}
}
