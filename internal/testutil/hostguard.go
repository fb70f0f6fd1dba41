package testutil

import (
	"fmt"
	"os"
	"syscall"
)

// hostPaths are objects of the host the tests must never change: the
// devices every program writes to, and the files the tests bind other
// versions over inside their namespaces. A replay that wrote through an
// fd it took for a stand-in, or a bind mount made outside a namespace,
// shows here.
var hostPaths = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/urandom", "/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/bin/sh"}

// hostState maps each of hostPaths to its identity: type and mode, owner,
// size, device and inode. A path that does not exist maps to "absent".
func hostState() map[string]string {
	m := make(map[string]string, len(hostPaths))
	for _, p := range hostPaths {
		var st syscall.Stat_t
		if err := syscall.Lstat(p, &st); err != nil {
			m[p] = "absent"
			continue
		}
		m[p] = fmt.Sprintf("mode %o uid %d gid %d size %d dev %d ino %d", st.Mode, st.Uid, st.Gid, st.Size, st.Dev, st.Ino)
	}
	return m
}

// hostChanges lists what changed between two hostStates.
func hostChanges(before, after map[string]string) []string {
	var out []string
	for _, p := range hostPaths {
		if before[p] != after[p] {
			out = append(out, fmt.Sprintf("%s: %s, now %s", p, before[p], after[p]))
		}
	}
	return out
}

// restoreDevNull puts back /dev/null's mode when the tests changed it,
// so that one such failure does not also fail every later package whose
// tests run as another user.
func restoreDevNull() {
	var st syscall.Stat_t
	if syscall.Lstat("/dev/null", &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFCHR && st.Mode&0o777 != 0o666 {
		os.Chmod("/dev/null", 0o666)
	}
}
