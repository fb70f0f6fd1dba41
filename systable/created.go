package systable

// CreatedPathArg returns the index of the argument naming the path a call
// with these argument registers creates (CreatesPath: mkdir's pathname,
// open's with O_CREAT, rename's and link's newpath, symlink's linkpath),
// or -1 when it creates none. By the rows' convention the created path
// is the row's last Path argument: the first of two is the one renamed
// or linked from, and symlink's target is a String.
func (s *Syscall) CreatedPathArg(args [6]uint64) int {
	if s.EffectsFor(args)&CreatesPath == 0 {
		return -1
	}
	for i := len(s.Args) - 1; i >= 0; i-- {
		if s.Args[i].Kind == Path {
			return i
		}
	}
	return -1
}
