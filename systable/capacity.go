package systable

// Capacity returns how many bytes of user memory an out-buffer argument
// may receive in a call made with args: the live buffer's size, which
// replay must not write past. It answers from the registers alone; ok is
// false when the size is behind a pointer (a socklen_t: the caller reads
// it), depends on a request the table does not size, or, for a buffer
// sized by the return value, when the row names no capacity argument.
func (a *Arg) Capacity(args [6]uint64, t *Table) (n uint64, ok bool) {
	size := uint64(a.Len.Size)
	if size == 0 {
		size = 1
	}
	switch a.Len.From {
	case LenFixed:
		return uint64(a.Len.Size), true
	case LenArg:
		return args[a.Len.Arg] * size, true
	case LenRet:
		if !a.Len.Bounded {
			return 0, false
		}
		return args[a.Len.Arg] * size, true
	case LenMinArgRet:
		return args[a.Len.Arg], true
	case LenFdSet:
		nfds := args[a.Len.Arg]
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
