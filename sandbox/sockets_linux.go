package sandbox

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// socketFile is a bound unix socket, held open.
type socketFile struct {
	path  string
	fd    int // O_PATH
	mntID int
}

// openSockets opens the socket files that are listening now. overlayfs
// does not pass connect(2) through to a socket in its lower layer, so the
// ones in an overlaid mount are bound over the overlay (bindSockets).
func openSockets() []socketFile {
	f, err := os.Open("/proc/thread-self/net/unix")
	if err != nil {
		return nil
	}
	paths := ParseUnixSockets(f)
	f.Close()
	var out []socketFile
	for _, p := range paths {
		fd, err := unix.Open(p, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			continue // another mount namespace's, or gone
		}
		id, mode, err := mountIDOf(fd)
		if err != nil || mode&unix.S_IFMT != unix.S_IFSOCK {
			unix.Close(fd)
			continue
		}
		out = append(out, socketFile{path: p, fd: fd, mntID: id})
	}
	return out
}

// bindSockets binds the real socket files that are on an overlaid mount
// over their copies in the new tree, so that clients in the sandbox reach
// the servers outside it.
func (b *builder) bindSockets(socks []socketFile, overlaid map[int]bool) error {
	for _, s := range socks {
		if !overlaid[s.mntID] && (b.narrow == nil || !b.narrow.covered(s.path)) {
			continue
		}
		src := "/proc/self/fd/" + strconv.Itoa(s.fd)
		err := unix.Mount(src, b.inRoot(s.path), "", unix.MS_BIND, "")
		switch {
		case err == unix.ENOENT:
			// Removed since it was listed (its server went away, a
			// container's shim socket): gone from the real tree too, and
			// nothing to keep reachable.
		case err != nil:
			return fmt.Errorf("keep the socket %s reachable: %w", s.path, err)
		}
	}
	return nil
}

func closeSockets(socks []socketFile) {
	for _, s := range socks {
		unix.Close(s.fd)
	}
}
