package pkgdb

import (
	"fmt"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Stamp identifies the state of the package database of root: the
// device, inode, size, modification and change times of the files and
// directories that change with it (dpkg rewrites its status file at
// every operation and renames new .list files into its info directory;
// apk rewrites its installed file). Two
// equal stamps mean the same database, so that the owners looked up in
// one hold for the other (a cache of them, record's ownerCache, is keyed
// by it); an edit that keeps all five of every file is not seen.
func Stamp(root string) string {
	var b strings.Builder
	for _, p := range [...]string{dpkgStatus, dpkgInfo, apkInstalled} {
		var st unix.Stat_t
		if err := unix.Stat(filepath.Join(root, p), &st); err != nil {
			b.WriteString("-;")
			continue
		}
		fmt.Fprintf(&b, "%d:%d:%d:%d:%d;", st.Dev, st.Ino, st.Size, st.Mtim.Nano(), st.Ctim.Nano())
	}
	return b.String()
}
