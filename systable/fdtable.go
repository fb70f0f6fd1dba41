package systable

import (
	"maps"

	"github.com/envbisect/envbisect/systable/internal/amd64"
)

// FDTable is a process's fd table as a tracker models it: for each fd
// number, what the tracker knows it refers to (a T of its own: an open
// file description, a path, a resource) and whether it is close-on-exec.
// Its methods are the kernel's rules for how calls change the table, so
// that every tracker applies the same ones: a new fd, a copy (dup, dup2,
// dup3, fcntl F_DUPFD), close, close_range, exec dropping close-on-exec
// fds, and a child sharing or copying the table (CLONE_FILES).
//
// An FDTable is not safe for concurrent use.
type FDTable[T any] struct {
	m map[int32]fdEntry[T]
}

type fdEntry[T any] struct {
	ref     T
	cloexec bool
}

// NewFDTable returns an empty table.
func NewFDTable[T any]() *FDTable[T] { return &FDTable[T]{m: make(map[int32]fdEntry[T])} }

// Get returns what fd refers to.
func (t *FDTable[T]) Get(fd int32) (ref T, ok bool) {
	e, ok := t.m[fd]
	return e.ref, ok
}

// Cloexec reports whether fd is open and close-on-exec.
func (t *FDTable[T]) Cloexec(fd int32) bool { return t.m[fd].cloexec }

// Len returns how many fds are open.
func (t *FDTable[T]) Len() int { return len(t.m) }

// Open puts ref on fd, as a call that makes an fd does (open, socket,
// pipe, accept, an inherited fd), closing what was there.
func (t *FDTable[T]) Open(fd int32, ref T, cloexec bool) {
	t.m[fd] = fdEntry[T]{ref: ref, cloexec: cloexec}
}

// Dup makes newfd a copy of oldfd (dup, dup2, dup3, fcntl F_DUPFD),
// referring to ref: the caller's copy of what oldfd refers to, which may
// say which call made the copy. The close-on-exec flag belongs to the fd,
// not to what it refers to: the copy has it only when the call asked
// (dup3 O_CLOEXEC, F_DUPFD_CLOEXEC). A copy onto the same number changes
// nothing, as dup2(fd, fd) does; ok is false then.
func (t *FDTable[T]) Dup(oldfd, newfd int32, ref T, cloexec bool) (ok bool) {
	if oldfd == newfd {
		return false
	}
	t.Open(newfd, ref, cloexec)
	return true
}

// SetCloexec sets fd's close-on-exec flag (fcntl F_SETFD, ioctl FIOCLEX
// and FIONCLEX); nothing when fd is not open.
func (t *FDTable[T]) SetCloexec(fd int32, cloexec bool) {
	if e, ok := t.m[fd]; ok {
		e.cloexec = cloexec
		t.m[fd] = e
	}
}

// Close closes fd.
func (t *FDTable[T]) Close(fd int32) { delete(t.m, fd) }

// CloseRange applies close_range(first, last, flags): it closes every
// fd from first to last, or with CLOSE_RANGE_CLOEXEC marks them
// close-on-exec. With CLOSE_RANGE_UNSHARE the process first gets its own
// copy of a shared table: the returned table is the process's from then
// on.
func (t *FDTable[T]) CloseRange(first, last uint32, flags uint64) *FDTable[T] {
	if flags&amd64.CLOSE_RANGE_UNSHARE != 0 {
		t = t.Copy()
	}
	for fd, e := range t.m {
		if uint32(fd) < first || uint32(fd) > last {
			continue
		}
		if flags&amd64.CLOSE_RANGE_CLOEXEC != 0 {
			e.cloexec = true
			t.m[fd] = e
		} else {
			delete(t.m, fd)
		}
	}
	return t
}

// Exec returns the table a process has after a successful exec: its own
// copy (exec unshares a table shared with CLONE_FILES) without the
// close-on-exec fds.
func (t *FDTable[T]) Exec() *FDTable[T] {
	c := t.Copy()
	for fd, e := range c.m {
		if e.cloexec {
			delete(c.m, fd)
		}
	}
	return c
}

// Fork returns the table of a child made with clone flags: the same
// table with CLONE_FILES, a copy otherwise.
func (t *FDTable[T]) Fork(flags uint64) *FDTable[T] {
	if CloneSharing(flags).FDs {
		return t
	}
	return t.Copy()
}

// Made returns what the fd a change made refers to (the first of a
// pair), once the change is applied; false when it made none. A call
// that names no path is shown with it.
func (t *FDTable[T]) Made(ch FDChange) (ref T, ok bool) {
	switch ch.Op {
	case FDMade:
		return t.Get(ch.FD)
	case FDMadePair:
		return t.Get(ch.Pair[0])
	}
	return ref, false
}

// Apply applies what a completed call did to the table (see FDChangeOf)
// and returns the process's table from then on: close_range with
// CLOSE_RANGE_UNSHARE gives it its own. ref says what a new fd refers
// to; from is the fd it copies (dup), or -1 for a new object.
func (t *FDTable[T]) Apply(ch FDChange, ref func(fd, from int32) T) *FDTable[T] {
	switch ch.Op {
	case FDMade:
		t.Open(ch.FD, ref(ch.FD, -1), ch.Cloexec)
	case FDCopied:
		if ch.FD != ch.From {
			t.Dup(ch.From, ch.FD, ref(ch.FD, ch.From), ch.Cloexec)
		}
	case FDMadePair:
		for _, fd := range ch.Pair {
			t.Open(fd, ref(fd, -1), ch.Cloexec)
		}
	case FDClosed:
		t.Close(ch.FD)
	case FDClosedRange:
		return t.CloseRange(ch.First, ch.Last, ch.RangeFlags)
	case FDFlagged:
		t.SetCloexec(ch.FD, ch.Cloexec)
	}
	return t
}

// Copy returns a copy of the table.
func (t *FDTable[T]) Copy() *FDTable[T] { return &FDTable[T]{m: maps.Clone(t.m)} }

// All calls yield for every open fd, in no particular order, until it
// returns false.
func (t *FDTable[T]) All(yield func(fd int32, ref T) bool) {
	for fd, e := range t.m {
		if !yield(fd, e.ref) {
			return
		}
	}
}
