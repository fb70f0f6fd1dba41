package systable

import "github.com/envbisect/envbisect/systable/internal/amd64"

// OpensForReading reports whether a call made with args makes an fd on
// the file at its path that the program can read: a row that makes an fd
// and names a path (open, openat, openat2, creat), whose open flags (in
// the registers, or openat2's struct open_how in how) ask for neither
// write-only access nor O_PATH. Rows without open flags that make an fd
// from a path are write-only (creat) or O_PATH-like (open_tree): false.
// Record keeps the file behind such an fd as a file object.
func (s *Syscall) OpensForReading(args [6]uint64, how []byte) bool {
	if s.Effects&CreatesFD == 0 || !s.HasPath() {
		return false
	}
	var flags uint64
	switch i := s.openFlagsArg(); {
	case i >= 0:
		flags = s.Value(i, args)
	case s.StructArg(StructOpenHow) >= 0:
		st := StructOf("struct open_how")
		f := st.Field("flags")
		if len(how) < f.Off+f.Size {
			return false
		}
		flags = f.Uint(how)
	default:
		return false
	}
	return flags&OpenFlags.Mask != amd64.O_WRONLY && flags&amd64.O_PATH == 0
}

// openFlagsArg returns the index of the row's open-flags argument, or -1.
func (s *Syscall) openFlagsArg() int {
	for i, a := range s.Args {
		if a.Flags == OpenFlags {
			return i
		}
	}
	return -1
}
