package render

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

var layouts = map[string]*layout{
	// arch/x86/include/uapi/asm/stat.h
	"amd64": {stat: statLayout{size: 144, dev: 0, ino: 8, nlink: 16, nlinkSize: 8, mode: 24, uid: 28, gid: 32,
		rdev: 40, fileSize: 48, blocks: 64, mtimeSec: 88, mtimeNsec: 96}},
	// include/uapi/asm-generic/stat.h
	"arm64": {stat: statLayout{size: 128, dev: 0, ino: 8, mode: 16, nlink: 20, nlinkSize: 4, uid: 24, gid: 28,
		rdev: 32, fileSize: 48, blocks: 64, mtimeSec: 88, mtimeNsec: 96}},
}

// layoutFor returns the layout of arch, or nil when it is not known (then
// arch-dependent structs print as their size).
func layoutFor(arch string) *layout { return layouts[arch] }
