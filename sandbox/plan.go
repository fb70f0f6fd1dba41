package sandbox

import (
	"path"
	"sort"
	"strings"
)

// Action is what the sandbox does with one reachable mount.
type Action int

const (
	// Overlay: a writable mount gets an overlay with its upper layer on
	// the run's scratch (a copy, for a mount of a single file).
	Overlay Action = iota
	// Bind: the mount is bound into the sandbox as it is.
	Bind
)

func (a Action) String() string {
	if a == Overlay {
		return "overlay"
	}
	return "bind"
}

// isPseudoFS reports whether a file system is an interface to the kernel,
// not storage: it is shared as it is.
func isPseudoFS(fstype string) bool {
	switch fstype {
	case "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "mqueue", "debugfs", "tracefs",
		"securityfs", "pstore", "bpf", "configfs", "fusectl", "hugetlbfs", "binfmt_misc", "efivarfs",
		"nsfs", "rpc_pipefs", "selinuxfs", "autofs":
		return true
	}
	return false
}

// isKernelTree reports whether p is in /proc, /sys or /dev, whose mounts
// are shared whatever their file system (/dev/shm is a tmpfs, but part of
// /dev).
func isKernelTree(p string) bool {
	for _, t := range []string{"/proc", "/sys", "/dev"} {
		if p == t || strings.HasPrefix(p, t+"/") {
			return true
		}
	}
	return false
}

// ActionFor decides what happens to mount m.
func ActionFor(m Mount) Action {
	if m.ReadOnly() || isPseudoFS(m.FSType) || isKernelTree(m.Point) {
		return Bind
	}
	return Overlay
}

// ByDepth sorts mounts so that every mount comes after the mounts of the
// directories above it: parents before children.
func ByDepth(ms []Mount) {
	sort.SliceStable(ms, func(i, j int) bool { return depth(ms[i].Point) < depth(ms[j].Point) })
}

func depth(p string) int {
	p = path.Clean(p)
	if p == "/" {
		return 0
	}
	return strings.Count(p, "/")
}
