package systable

// Value returns argument i of a call made with args as the kernel reads
// it: only the low 32 bits of an argument whose C type is 32 bits wide
// (an int length: the upper half of the register may hold anything).
func (s *Syscall) Value(i int, args [6]uint64) uint64 {
	if i < len(s.Args) && s.Args[i].Int32 {
		return uint64(uint32(args[i]))
	}
	return args[i]
}

// Capacity returns how many bytes of user memory out-buffer argument i
// may receive in a call made with args: the live buffer's size, which
// replay must not write past. It answers from the registers alone; ok is
// false when the size is behind a pointer (a socklen_t: the caller reads
// it), depends on a request the table does not size, or, for a buffer
// sized by the return value, when the row names no capacity argument.
func (s *Syscall) Capacity(i int, args [6]uint64, t *Table) (n uint64, ok bool) {
	a := &s.Args[i]
	size := uint64(a.Len.Size)
	if size == 0 {
		size = 1
	}
	switch a.Len.From {
	case LenFixed:
		return uint64(a.Len.Size), true
	case LenArg:
		return s.Value(int(a.Len.Arg), args) * size, true
	case LenRet:
		if !a.Len.Bounded {
			return 0, false
		}
		return s.Value(int(a.Len.Arg), args) * size, true
	case LenMinArgRet:
		return s.Value(int(a.Len.Arg), args), true
	case LenFdSet:
		nfds := s.Value(int(a.Len.Arg), args)
		if nfds > 1<<20 {
			return 0, false
		}
		return (nfds + 63) / 64 * 8, true
	case LenIoctl:
		if io, found := t.Ioctl(args[1]); found && io.Size > 0 {
			return uint64(io.Size), true
		}
	case LenFcntl:
		if n, _ := FcntlSize(args[1]); n > 0 {
			return uint64(n), true
		}
	case LenPrctl:
		if n, _ := PrctlSize(args[0]); n > 0 {
			return uint64(n), true
		}
	}
	return 0, false
}
