package ptrace

import (
	"path/filepath"
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
// such buffer, a stat of the tracer's own; the filter is asked once per
// distinct file, with the path resolved (statedName).
func (k *fileKeeper) keepStated(t *task, row *systable.Syscall, c *trace.Call) {
	if k.stated == nil || c.NoReturn {
		return
	}
	if c.Ret >= 0 && row.EffectsFor(c.Args)&namesChange != 0 {
		clear(k.dirs) // a directory of the cache may lead elsewhere now
	}
	if c.Ret != 0 || !row.StatsPath() || !strings.HasPrefix(c.Path, "/") || kernelFS(c.Path) {
		return
	}
	link := "/proc/" + strconv.Itoa(t.tid) + "/root" + c.Path
	var st unix.Stat_t
	follows := row.FollowsLink(c.Args)
	if !k.statBuf.decode(row, c, &st) {
		stat := unix.Stat
		if !follows {
			stat = unix.Lstat
		}
		if err := stat(link, &st); err != nil {
			return
		}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return
	}
	k.keepFile(link, c.Path, &st, false, &statedName{t: t, link: link, path: c.Path, lastIsFile: !follows})
}

// namesChange are the effects after which a directory path may lead to
// another directory than before: a rename, removal or creation (of a
// symbolic link, or of a directory where a removed one was), a chroot, a
// mount, a move to other namespaces.
const namesChange = systable.CreatesPath | systable.RemovesPath | systable.ChangesRoot | systable.ChangesMounts | systable.ChangesNamespace

// statedName is a file the command only stat'ed, as the tracer asks the
// StatedFilter about it: link reaches it through the /proc of t, path is
// what the command named, and lastIsFile says that the path's last
// component is the regular file itself (the call did not follow a link
// there: lstat, AT_SYMLINK_NOFOLLOW).
type statedName struct {
	t          *task
	link, path string
	lastIsFile bool
}

// dirKey names a directory of the resolved-directory cache (fileKeeper.dirs):
// its path as the processes sharing fs (root and working directory, CLONE_FS)
// name it.
type dirKey struct {
	fs  *fsState
	dir string
}

// wantsStated asks the StatedFilter about the file n names: ok is false
// when the tracer cannot reach it. Most files a command only stats are
// declined (git status stats every file of its work tree), and each is
// asked about once, with the path the command gave and where it leads.
// Where it leads comes from the file's directory, resolved once per
// directory (an O_PATH open, readlink and close, raw: the kernel opens no
// file and Go's poller registers nothing) and kept until a recorded call
// that may change where a directory path leads (namesChange), when the
// path is clean and its last component is the file itself; otherwise from
// the file, resolved the same way. A directory renamed by a process
// outside the recording while it runs may leave a file looked up by its
// old directory's name: the owner answered is then the one of the path as
// it was, as an earlier recording would have answered.
func (k *fileKeeper) wantsStated(n *statedName) (wanted, ok bool) {
	resolved, ok := k.resolveStated(n)
	if !ok {
		return false, false
	}
	if resolved == n.path {
		resolved = ""
	}
	return k.stated.KeepsStated(n.path, resolved), true
}

// resolveStated returns where n's path leads as the tracer sees it.
func (k *fileKeeper) resolveStated(n *statedName) (string, bool) {
	if !n.lastIsFile || n.path != filepath.Clean(n.path) {
		return resolveLink(n.link)
	}
	dir, base := filepath.Split(n.path)
	key := dirKey{fs: n.t.proc.fs, dir: dir}
	rdir, ok := k.dirs[key]
	if !ok {
		r, ok := resolveLink(n.link[:len(n.link)-len(base)])
		if !ok || r == "" {
			return resolveLink(n.link)
		}
		rdir = r
		if !strings.HasSuffix(rdir, "/") {
			rdir += "/"
		}
		if k.dirs == nil {
			k.dirs = make(map[dirKey]string)
		}
		k.dirs[key] = rdir
	}
	return rdir + base, true
}

// resolveLink returns the path, as this process sees it, of the file or
// directory link leads to, every symbolic link followed.
func resolveLink(link string) (string, bool) {
	fd, err := unix.Open(link, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", false
	}
	defer unix.Close(fd)
	var buf [unix.PathMax]byte
	n, err := unix.Readlink(fdLink(fd), buf[:])
	if err != nil {
		return "", true
	}
	return string(buf[:n]), true
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

// fdLink is /proc/self/fd/FD.
func fdLink(fd int) string {
	return "/proc/self/fd/" + strconv.Itoa(fd)
}
