package systable

import "golang.org/x/sys/unix"

// Rules that depend on the value of an enum argument, for the stages
// that would otherwise compare the value's name.

// enumIs reports whether the first argument whose flag set is fs holds
// want (within fs's Mask); false when the row has no such argument.
func (s *Syscall) enumIs(fs *FlagSet, args [6]uint64, want uint64) bool {
	for i, a := range s.Args {
		if a.Flags != fs {
			continue
		}
		v := s.Value(i, args)
		if fs.Mask != 0 {
			v &= fs.Mask
		}
		return v == want
	}
	return false
}

// SeeksAbsolute reports whether a call made with args sets its fd's
// offset whatever it was (lseek with SEEK_SET).
func (s *Syscall) SeeksAbsolute(args [6]uint64) bool {
	return s.enumIs(Whence, args, unix.SEEK_SET)
}

// AddsWatch reports whether a call made with args adds the fd of its
// second fd argument to the set behind its first (epoll_ctl with
// EPOLL_CTL_ADD).
func (s *Syscall) AddsWatch(args [6]uint64) bool {
	return s.enumIs(EpollCtlOps, args, unix.EPOLL_CTL_ADD)
}

// MakesFIFO reports whether a call made with args makes a FIFO (mknod
// with S_IFIFO).
func (s *Syscall) MakesFIFO(args [6]uint64) bool {
	return s.enumIs(FileTypes, args, unix.S_IFIFO)
}
