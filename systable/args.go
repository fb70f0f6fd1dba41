package systable

// HasPath reports whether the row has a path argument.
func (s *Syscall) HasPath() bool {
	for _, a := range s.Args {
		if a.Kind == Path {
			return true
		}
	}
	return false
}

// FirstFD returns the value of the row's first fd argument in args, or
// -1 when it has none.
func (s *Syscall) FirstFD(args [6]uint64) int32 {
	for i, a := range s.Args {
		if a.Kind == FD {
			return int32(args[i])
		}
	}
	return -1
}
