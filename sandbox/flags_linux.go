package sandbox

import "golang.org/x/sys/unix"

// mountFlags are the MS_* flags of a mount's per-mount options (ro,
// nosuid, nodev, noexec, the atime mode, nosymfollow).
func mountFlags(opts []string) uintptr {
	var f uintptr
	for _, o := range opts {
		switch o {
		case "ro":
			f |= unix.MS_RDONLY
		case "nosuid":
			f |= unix.MS_NOSUID
		case "nodev":
			f |= unix.MS_NODEV
		case "noexec":
			f |= unix.MS_NOEXEC
		case "noatime":
			f |= unix.MS_NOATIME
		case "nodiratime":
			f |= unix.MS_NODIRATIME
		case "relatime":
			f |= unix.MS_RELATIME
		case "strictatime":
			f |= unix.MS_STRICTATIME
		case "nosymfollow":
			f |= unix.MS_NOSYMFOLLOW
		}
	}
	return f
}
