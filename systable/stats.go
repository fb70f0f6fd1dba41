package systable

// StatsPath reports whether the row's call answers with the stat of a
// path it names: a path argument and a struct stat or struct statx
// out-buffer (stat, lstat, newfstatat, statx; not fstat, which names an
// fd). A recording keeps the content of some files a command only
// stat'ed (ptrace's StatedFilter).
func (s *Syscall) StatsPath() bool {
	return s.HasPath() && (s.StructArg(StructStat) >= 0 || s.StructArg(StructStatx) >= 0)
}
