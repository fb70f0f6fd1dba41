package systable

import "github.com/envbisect/envbisect/systable/internal/amd64"

// CloneShares is what a process or thread made by clone (or clone3,
// fork, vfork) shares with its parent, from its clone flags: the one
// place that says what CLONE_FILES, CLONE_FS and CLONE_VM mean.
type CloneShares struct {
	FDs    bool // CLONE_FILES: one fd table
	FS     bool // CLONE_FS: one working directory, root and umask
	VM     bool // CLONE_VM: one address space
	Thread bool // CLONE_THREAD: a thread of the same process
	Vfork  bool // CLONE_VFORK: the parent waits until the child execs or exits
}

// CloneSharing returns what a child made with clone flags shares.
func CloneSharing(flags uint64) CloneShares {
	return CloneShares{
		FDs:    flags&amd64.CLONE_FILES != 0,
		FS:     flags&amd64.CLONE_FS != 0,
		VM:     flags&amd64.CLONE_VM != 0,
		Thread: flags&amd64.CLONE_THREAD != 0,
		Vfork:  flags&amd64.CLONE_VFORK != 0,
	}
}

// The clone flags fork and vfork imply, which take none: a child with its
// own copy of everything, and one that borrows the parent's memory while
// the parent waits, both signalling SIGCHLD when they end.
const (
	ForkFlags  uint64 = amd64.SIGCHLD
	VforkFlags uint64 = amd64.CLONE_VM | amd64.CLONE_VFORK | amd64.SIGCHLD
)
