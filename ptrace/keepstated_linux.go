package ptrace

import (
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// keepStated hands the regular file that c, just completed, stat'ed by
// its path (systable's StatsPath: stat, lstat, newfstatat, statx) to the
// sink when the sink's StatedFilter wants it (see StatedFilter). The call
// gets no Obj: it gave the program no fd on the file and ran nothing, and
// the file object is the good run's file, which no call names (as an
// executable's ELF interpreter). The file's identity is the one the
// call returned to the command (statBuf), or, when the trace holds no
// such buffer, a stat of the tracer's own; an O_PATH open, readlink and
// the filter's answer come per distinct file.
func (k *fileKeeper) keepStated(t *task, row *systable.Syscall, c *trace.Call) {
	if k.stated == nil || c.Ret != 0 || c.NoReturn || !row.StatsPath() || !strings.HasPrefix(c.Path, "/") || kernelFS(c.Path) {
		return
	}
	link := "/proc/" + strconv.Itoa(t.tid) + "/root" + c.Path
	var st unix.Stat_t
	if !k.statBuf.decode(row, c, &st) {
		stat := unix.Stat
		if !row.FollowsLink(c.Args) {
			stat = unix.Lstat
		}
		if err := stat(link, &st); err != nil {
			return
		}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return
	}
	k.keepFile(link, c.Path, &st, false, true)
}

// kernelFS reports whether p is under /proc, /sys or /dev, whose files
// are the kernel's answers and devices, owned by no package (and
// /proc/self would be the tracer's, reached from here).
func kernelFS(p string) bool {
	for _, d := range []string{"/proc", "/sys", "/dev"} {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// wantsStated asks the StatedFilter about the file at link, which the
// command named path: ok is false when the tracer cannot open it. It
// resolves the path through an O_PATH descriptor, raw: most files a
// command only stats are declined (git status stats every file of its
// work tree), and an O_PATH open makes the kernel open no file and Go's
// runtime register nothing with its poller, which os.OpenFile and Close
// cost per file on the tracer thread while the command waits.
func (k *fileKeeper) wantsStated(link, path string) (wanted, ok bool) {
	fd, err := unix.Open(link, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return false, false
	}
	defer unix.Close(fd)
	var buf [unix.PathMax]byte
	resolved := ""
	if n, err := unix.Readlink(fdLink(fd), buf[:]); err == nil {
		if r := buf[:n]; string(r) != path {
			resolved = string(r)
		}
	}
	return k.stated.KeepsStated(path, resolved), true
}

// fdLink is /proc/self/fd/FD.
func fdLink(fd int) string {
	return "/proc/self/fd/" + strconv.Itoa(fd)
}
