package depgraph

import (
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// atFDCWD is the dirfd that means "the current directory".
const atFDCWD = unix.AT_FDCWD

const pageSize = 4096

// arg returns argument i's register as its C type has it: the low 32 bits
// for 32-bit arguments.
func arg(row *systable.Syscall, c *trace.Call, i int) uint64 {
	v := c.Args[i]
	if i < len(row.Args) && row.Args[i].Int32 {
		v = uint64(uint32(v))
	}
	return v
}

// fdArg returns argument i as an fd.
func fdArg(c *trace.Call, i int) int32 { return int32(uint32(c.Args[i])) }

// makesCloexec reports whether a successful fd-making call asks for
// close-on-exec, as systable reads it for every fd tracker (FDChange: a
// *_CLOEXEC flag bit or enum value, or O_CLOEXEC in openat2's open_how).
func makesCloexec(row *systable.Syscall, c *trace.Call) bool { return c.FDChange(row).Cloexec }

// setsCloexec reports whether the call changes the close-on-exec flag of
// its fd (fcntl F_SETFD, ioctl FIOCLEX and FIONCLEX) and to what.
func setsCloexec(row *systable.Syscall, c *trace.Call) (changes, cloexec bool) {
	return row.CloexecChange(c.Args)
}

// setsDescState reports whether an fcntl or ioctl command changes the
// open file description (F_SETFL, F_SETLK, F_SETOWN, FIONBIO ...) rather
// than the fd (F_SETFD) or nothing (F_GETFL).
func setsDescState(row *systable.Syscall, c *trace.Call) bool {
	return row.RequestEffect(c.Args)&systable.ReqChangesDescription != 0
}

// pathForm says how a path argument was written.
type pathForm uint8

const (
	formUnknown  pathForm = iota // its memory was not captured
	formAbsolute                 // "/etc/hosts"
	formRelative                 // "d/x/f": resolved against the cwd or the dirfd
	formEmpty                    // "" or NULL: the call acts on its dirfd itself (AT_EMPTY_PATH)
)

// pathArgForm returns how argument i, a path, was written.
func pathArgForm(c *trace.Call, i int) pathForm {
	if c.Args[i] == 0 {
		return formEmpty // NULL: fanotify_mark, utimensat act on the dirfd
	}
	m := c.MemOf(uint8(i), trace.PartWhole)
	switch {
	case m == nil || m.Flag&(trace.Fault|trace.Excluded) != 0:
		return formUnknown
	case len(m.Data) == 0 || m.Data[0] == 0:
		return formEmpty
	case m.Data[0] == '/':
		return formAbsolute
	}
	return formRelative
}

// isDevice reports whether path names a device or a kernel file whose
// content writes do not define for later reads (a tty, /dev/null).
func isDevice(path string) bool {
	return strings.HasPrefix(path, "/dev/") && !strings.HasPrefix(path, "/dev/shm/")
}
