package systable

import "strings"

// EnumName returns the name of value v in an enum flag set, or "".
func (f *FlagSet) EnumName(v uint64) string {
	if f == nil {
		return ""
	}
	if f.Mask != 0 {
		v &= f.Mask
	}
	for _, e := range f.Enum {
		if e.Value == v {
			return e.Name
		}
	}
	return ""
}

// AsksCloexec reports whether a call made with args asks for the fd it
// makes to be close-on-exec, as its registers say: a set flag bit named
// *_CLOEXEC (O_CLOEXEC, SOCK_CLOEXEC, EFD_CLOEXEC ...) or an enum value
// named so (F_DUPFD_CLOEXEC). openat2 passes its flags in memory (struct
// open_how), which callers holding it check themselves.
func (s *Syscall) AsksCloexec(args [6]uint64) bool {
	for i, a := range s.Args {
		if a.Flags == nil {
			continue
		}
		v := args[i]
		if a.Int32 {
			v = uint64(uint32(v))
		}
		switch a.Kind {
		case Flags:
			for _, b := range a.Flags.Bits {
				if b.Value != 0 && v&b.Value == b.Value && strings.HasSuffix(b.Name, "_CLOEXEC") && b.Name != "MSG_CMSG_CLOEXEC" {
					return true
				}
			}
		case Enum:
			if strings.HasSuffix(a.Flags.EnumName(v), "_CLOEXEC") {
				return true
			}
		}
	}
	return false
}
