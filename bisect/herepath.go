package bisect

import (
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// A command recorded in one working directory and located from another
// (a checkout moved from /src/a to /src/b) names its files relative to
// it, so a recorded path under the recorded directory is, here, the same
// name under this one: the call-level search compares the calls as if
// made in the recorded directory (align.NewKeyer), and so does the
// report's Path. herePath gives the path the user must look at here;
// the report prints it beside the recorded one, since the recorded file
// may still be there, unchanged, and is not what failed. When one
// directory holds the other nothing is rewritten, as in the keyer.

// herePath is the path here of recorded path p: "" when the working
// directories are the same, one holds the other, or p is not under the
// recorded one.
func (s *search) herePath(p string) string {
	return herePathOf(p, append(append([]StartItem(nil), s.o.Start...), s.o.Unapplied...))
}

// herePathOf is herePath given the start items that differ (the cwd's
// among them, applied or not).
func herePathOf(p string, items []StartItem) string {
	for _, it := range items {
		if trace.StartKind(it.Kind) != trace.StartCwd || it.Good == nil || it.Here == nil {
			continue
		}
		good, here := strings.TrimSuffix(*it.Good, "/"), strings.TrimSuffix(*it.Here, "/")
		if good == "" || here == "" || good == here || strings.HasPrefix(good, here+"/") || strings.HasPrefix(here, good+"/") {
			return ""
		}
		if rel, ok := strings.CutPrefix(p, good+"/"); ok && rel != "" {
			return here + "/" + rel
		}
		return ""
	}
	return ""
}
