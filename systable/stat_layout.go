package systable

// StatLayout is struct stat as stat, fstat, lstat and newfstatat fill it
// on one architecture: the offset in bytes of each field (times are the
// offset of the seconds; nanoseconds follow 8 bytes later).
type StatLayout struct {
	Size                                       int // sizeof(struct stat)
	Dev, Ino, Mode, Nlink, NlinkSize, UID, GID int // NlinkSize: 4 or 8 bytes
	Rdev, FileSize, Blksize, Blocks            int
	Atime, Mtime, Ctime                        int
}

// StatLayoutOf returns struct stat's layout on arch. It covers every
// architecture a trace can come from, whichever this binary runs on.
func StatLayoutOf(arch string) (StatLayout, bool) {
	switch arch {
	case "amd64": // arch/x86/include/uapi/asm/stat.h
		return StatLayout{Size: 144, Dev: 0, Ino: 8, Nlink: 16, NlinkSize: 8, Mode: 24, UID: 28, GID: 32,
			Rdev: 40, FileSize: 48, Blksize: 56, Blocks: 64, Atime: 72, Mtime: 88, Ctime: 104}, true
	case "arm64": // include/uapi/asm-generic/stat.h
		return StatLayout{Size: 128, Dev: 0, Ino: 8, Mode: 16, Nlink: 20, NlinkSize: 4, UID: 24, GID: 28,
			Rdev: 32, FileSize: 48, Blksize: 56, Blocks: 64, Atime: 72, Mtime: 88, Ctime: 104}, true
	}
	return StatLayout{}, false
}
