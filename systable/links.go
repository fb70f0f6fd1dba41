package systable

import "github.com/envbisect/envbisect/systable/internal/amd64"

// onLink marks a call that acts on a symbolic link itself (OnLink).
func (s Syscall) onLink() Syscall { s.OnLink = true; return s }

// FollowsLink reports whether a call made with args follows a symbolic
// link at the end of the path it names, so that what it reports (a stat,
// a missing path) is about what the link leads to: false for the rows
// that act on the link itself (OnLink) and for calls whose lookup flags
// (AtFlags, StatxFlags, FaccessatFlags) hold AT_SYMLINK_NOFOLLOW. Links
// in the middle of a path are followed by every call.
func (s *Syscall) FollowsLink(args [6]uint64) bool {
	if s.OnLink {
		return false
	}
	for _, fs := range []*FlagSet{AtFlags, StatxFlags, FaccessatFlags} {
		if s.bitsSet(fs, args, amd64.AT_SYMLINK_NOFOLLOW) {
			return false
		}
	}
	return true
}
