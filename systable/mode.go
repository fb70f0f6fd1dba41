package systable

// ModeIgnored reports whether a Mode argument that follows a flags
// argument of open flags is ignored by the kernel for flags value v: the
// flags are open's, and have neither O_CREAT nor O_TMPFILE. strace leaves
// such a mode out.
func ModeIgnored(flags, mode Arg, v uint64) bool {
	if mode.Kind != Mode || flags.Kind != Flags || flags.Flags == nil {
		return false
	}
	f := flags.Flags
	known := false
	for _, b := range f.Bits {
		if b.Name == "O_CREAT" {
			known = true
		}
	}
	return known && !f.Has(v, "O_CREAT") && !f.Has(v, "O_TMPFILE")
}
