package systable

import "github.com/envbisect/envbisect/systable/internal/amd64"

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
	return s.enumIs(Whence, args, amd64.SEEK_SET)
}

// AddsWatch reports whether a call made with args adds the fd of its
// second fd argument to the set behind its first (epoll_ctl with
// EPOLL_CTL_ADD).
func (s *Syscall) AddsWatch(args [6]uint64) bool {
	return s.enumIs(EpollCtlOps, args, amd64.EPOLL_CTL_ADD)
}

// MakesFIFO reports whether a call made with args makes a FIFO (mknod
// with S_IFIFO).
func (s *Syscall) MakesFIFO(args [6]uint64) bool {
	return s.enumIs(FileTypes, args, amd64.S_IFIFO)
}

// bitsSet reports whether the first argument whose flag set is fs has
// every bit of mask set; false when the row has no such argument.
func (s *Syscall) bitsSet(fs *FlagSet, args [6]uint64, mask uint64) bool {
	for i, a := range s.Args {
		if a.Flags == fs {
			return s.Value(i, args)&mask == mask
		}
	}
	return false
}

// MapsAnonymous reports whether a memory call made with args maps
// anonymous memory (MAP_ANONYMOUS): its fd argument is not used.
func (s *Syscall) MapsAnonymous(args [6]uint64) bool {
	return s.bitsSet(MapFlags, args, amd64.MAP_ANONYMOUS)
}

// OpensDirectory reports whether an open made with args asks for a
// directory (O_DIRECTORY).
func (s *Syscall) OpensDirectory(args [6]uint64) bool {
	return s.bitsSet(OpenFlags, args, amd64.O_DIRECTORY)
}

// RemovesDirectory reports whether an unlinkat made with args removes a
// directory (AT_REMOVEDIR).
func (s *Syscall) RemovesDirectory(args [6]uint64) bool {
	return s.bitsSet(UnlinkatFlags, args, amd64.AT_REMOVEDIR)
}

// OpenHowCloexec reports whether the struct open_how in b (openat2's
// flags in memory) asks for O_CLOEXEC; false when b is too short.
func OpenHowCloexec(b []byte) bool {
	st := StructOf("struct open_how")
	f := st.Field("flags")
	return len(b) >= f.Off+f.Size && f.Uint(b)&amd64.O_CLOEXEC != 0
}

// OpensReadOnly reports whether an open made with args asks for read
// access only (O_RDONLY in its flags, or in openat2's struct open_how,
// given in how): the file it gives an fd on can be handed out sealed
// against writes. False for calls that open for writing (creat) or name
// no access mode.
func (s *Syscall) OpensReadOnly(args [6]uint64, how []byte) bool {
	const accMode = amd64.O_WRONLY | amd64.O_RDWR
	for i, a := range s.Args {
		if a.Flags == OpenFlags {
			return s.Value(i, args)&accMode == amd64.O_RDONLY
		}
	}
	if s.StructArg(StructOpenHow) < 0 {
		return false
	}
	st := StructOf("struct open_how")
	f := st.Field("flags")
	return len(how) >= f.Off+f.Size && f.Uint(how)&accMode == amd64.O_RDONLY
}
