package render

import (
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
)

// ErrnoText returns an error number as strace prints it after "-1 ":
// "ENOENT (No such file or directory)".
func ErrnoText(errno int) string {
	name, msg := errnoName(errno)
	return name + " (" + msg + ")"
}

// errnoName returns the symbolic name and the message of errno.
func errnoName(errno int) (name, msg string) {
	if k, ok := kernelErrnos[errno]; ok {
		return k[0], k[1]
	}
	e := syscall.Errno(errno)
	name = unix.ErrnoName(e)
	if name == "" {
		name = "errno " + strconv.Itoa(errno)
	}
	msg = e.Error()
	if msg != "" && msg[0] >= 'a' && msg[0] <= 'z' {
		// Go's messages are strerror's with a lower-case first letter.
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	return name, msg
}

// kernelErrnos are the errors the kernel uses internally; a tracer sees
// them at a syscall-exit stop of an interrupted call.
var kernelErrnos = map[int][2]string{
	512: {"ERESTARTSYS", "To be restarted if SA_RESTART is set"},
	513: {"ERESTARTNOINTR", "To be restarted"},
	514: {"ERESTARTNOHAND", "To be restarted if no handler"},
	515: {"ENOIOCTLCMD", "No ioctl command"},
	516: {"ERESTART_RESTARTBLOCK", "Interrupted by signal"},
	517: {"EPROBE_DEFER", "Driver requests probe retry"},
}

// signalName returns "SIGTERM" for 15, or the number when it has no name.
func signalName(n int) string { return systable.SignalName(n) }

// signal is a signal argument: its name in text and JSON.
func signal(n int) value {
	s := signalName(n)
	return lit{s, s}
}

// fileTypes are the S_IF* values of a mode's type field.
var fileTypes = []struct {
	v    uint64
	name string
}{
	{0o140000, "S_IFSOCK"}, {0o120000, "S_IFLNK"}, {0o100000, "S_IFREG"}, {0o060000, "S_IFBLK"},
	{0o040000, "S_IFDIR"}, {0o020000, "S_IFCHR"}, {0o010000, "S_IFIFO"},
}

// formatMode prints file mode bits as strace does: S_IFREG|0644, 022, 000.
func formatMode(v uint64) string {
	var parts []string
	if t := v & 0o170000; t != 0 {
		name := ""
		for _, ft := range fileTypes {
			if ft.v == t {
				name = ft.name
			}
		}
		if name == "" {
			name = "0" + strconv.FormatUint(t, 8)
		}
		parts = append(parts, name)
	}
	perm := "0" + strconv.FormatUint(v&0o7777, 8)
	for len(perm) < 3 {
		perm = "0" + perm
	}
	parts = append(parts, perm)
	if rest := v &^ 0o177777; rest != 0 {
		parts = append(parts, hex(rest))
	}
	return strings.Join(parts, "|")
}

// addressFamilies names the socket address families decoded or seen
// most.
var addressFamilies = map[uint16]string{
	0: "AF_UNSPEC", 1: "AF_UNIX", 2: "AF_INET", 3: "AF_AX25", 4: "AF_IPX", 5: "AF_APPLETALK",
	10: "AF_INET6", 16: "AF_NETLINK", 17: "AF_PACKET", 31: "AF_BLUETOOTH", 38: "AF_ALG", 40: "AF_VSOCK",
}

// direntTypes names the d_type values of linux_dirent64.
var direntTypes = map[uint8]string{
	0: "DT_UNKNOWN", 1: "DT_FIFO", 2: "DT_CHR", 4: "DT_DIR", 6: "DT_BLK", 8: "DT_REG", 10: "DT_LNK", 12: "DT_SOCK", 14: "DT_WHT",
}
