package pkgdb

import "strings"

// Unowned reports whether no package can own path: it is under a
// directory that Debian policy and the FHS keep out of packages
// (temporary files, run-time state, users' homes, the kernel's file
// systems). A recording asks for the owners of the files a command reads
// there (a compiler's temporary files, a checkout in /tmp) without
// building the database's index for them.
func Unowned(path string) bool {
	for _, dir := range [...]string{"/tmp/", "/var/tmp/", "/dev/shm/", "/run/", "/proc/", "/sys/", "/home/"} {
		if strings.HasPrefix(path, dir) {
			return true
		}
	}
	return false
}
