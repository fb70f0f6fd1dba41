package render

import "github.com/envbisect/envbisect/systable"

// layout holds the offsets of the structs whose layout differs between
// architectures. It is chosen by the trace's architecture, not by the one
// this binary runs on.
type layout struct {
	stat statLayout
}

// statLayout is struct stat as the stat, fstat, lstat and newfstatat
// calls fill it. Every offset is in bytes; nlinkSize is 4 or 8.
type statLayout struct {
	size                                        int
	dev, ino, mode, nlink, nlinkSize, uid, gid  int
	rdev, fileSize, blocks, mtimeSec, mtimeNsec int
}

// layoutFor returns the layout of arch, or nil when it is not known (then
// arch-dependent structs print as their size).
func layoutFor(arch string) *layout {
	sl, ok := systable.StatLayoutOf(arch)
	if !ok {
		return nil
	}
	return &layout{stat: statLayout{size: sl.Size, dev: sl.Dev, ino: sl.Ino, mode: sl.Mode, nlink: sl.Nlink,
		nlinkSize: sl.NlinkSize, uid: sl.UID, gid: sl.GID, rdev: sl.Rdev, fileSize: sl.FileSize,
		blocks: sl.Blocks, mtimeSec: sl.Mtime, mtimeNsec: sl.Mtime + 8}}
}
