package launch

import (
	"path"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// atFDCWD is the dirfd that means "the current directory".
const atFDCWD = unix.AT_FDCWD

// ResolvePath makes p absolute: against base when it is relative. The
// result is cleaned lexically (symlinks are not followed: the trace names
// what the program asked for).
func ResolvePath(base, p string) string {
	if p == "" {
		return base
	}
	if strings.HasPrefix(p, "/") {
		return path.Clean(p)
	}
	if base == "" {
		return p
	}
	return path.Join(base, p)
}

// CallPaths sets a completed call's Path and Path2: the paths it names,
// resolved against its dirfd or the cwd, else what its fd argument
// refers to. fdName names a process's fd ("" when unknown). Every
// recorder fills them this way.
func CallPaths(row *systable.Syscall, c *trace.Call, cwd string, fdName func(fd int32) string) {
	dirfd := int32(atFDCWD)
	fdSeen := false
	for i := range row.Args {
		switch row.Args[i].Kind {
		case systable.DirFD:
			dirfd = int32(c.Args[i])
		case systable.Path:
			m := c.MemOf(uint8(i), trace.PartWhole)
			if m == nil || m.Flag&trace.Fault != 0 {
				continue
			}
			base := cwd
			if dirfd != atFDCWD {
				base = fdName(dirfd)
			}
			resolved := ResolvePath(base, string(m.Data))
			if c.Path == "" || fdSeen {
				c.Path, fdSeen = resolved, false
			} else if c.Path2 == "" {
				c.Path2 = resolved
			}
			dirfd = atFDCWD
		case systable.FD:
			if c.Path == "" {
				if fd := int32(c.Args[i]); fd >= 0 {
					c.Path = fdName(fd)
					fdSeen = c.Path != ""
				}
			}
		}
	}
}
