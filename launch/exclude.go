package launch

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// excluder decides which paths' contents stay out of the trace.
type excluder struct {
	globs []string
}

// newExcluder validates globs. A glob is matched against the whole
// absolute path with doublestar's rules: "*" and "?" do not cross "/",
// "**" as a whole path component matches any number of components
// (none included), anywhere in the pattern, and {a,b} alternates. A
// glob that can never match an absolute path (one that starts with
// neither "/" nor "**") is refused, saying what to write instead.
func newExcluder(globs []string) (excluder, error) {
	for _, g := range globs {
		if !doublestar.ValidatePattern(g) {
			return excluder{}, fmt.Errorf("bad --exclude-content pattern %q: not a valid glob (unbalanced [ or {, or a trailing \\)", g)
		}
		if !strings.HasPrefix(g, "/") && !strings.HasPrefix(g, "**") {
			return excluder{}, fmt.Errorf("bad --exclude-content pattern %q: it is matched against absolute paths and can never match one; "+
				"write '/%s' for a path from the root, or '**/%s' for one anywhere", g, strings.TrimPrefix(g, "./"), strings.TrimPrefix(g, "./"))
		}
	}
	return excluder{globs: globs}, nil
}

func (e excluder) match(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	for _, g := range e.globs {
		if doublestar.MatchUnvalidated(g, p) {
			return true
		}
	}
	return false
}

// ContentFilter is --exclude-content, as both recorders apply it: it
// drops the contents of calls on excluded paths.
type ContentFilter struct{ e excluder }

// NewContentFilter validates globs (see newExcluder).
func NewContentFilter(globs []string) (ContentFilter, error) {
	e, err := newExcluder(globs)
	return ContentFilter{e}, err
}

// Excludes reports whether path's contents stay out of the trace.
func (f ContentFilter) Excludes(path string) bool {
	return len(f.e.globs) > 0 && f.e.match(path)
}

// Apply drops c's file and socket contents when c.Path is excluded.
func (f ContentFilter) Apply(row *systable.Syscall, c *trace.Call) {
	if len(f.e.globs) == 0 || !f.e.match(c.Path) {
		return
	}
	for i := range c.Mem {
		if isContent(row, &c.Mem[i]) {
			c.Mem[i].Data = nil
			c.Mem[i].Flag |= trace.Excluded
		}
	}
}

// isContent reports whether a captured buffer is file or socket content
// (what --exclude-content hides), as opposed to a path, a struct or argv.
func isContent(row *systable.Syscall, mem *trace.Mem) bool {
	if int(mem.Arg) >= len(row.Args) {
		return false
	}
	a := &row.Args[mem.Arg]
	switch a.Kind {
	case systable.InIovec, systable.OutIovec:
		return true
	case systable.InMsghdr, systable.OutMsghdr, systable.InMmsghdr, systable.OutMmsghdr:
		return mem.Part == trace.PartIovData
	case systable.InBuf, systable.OutBuf:
		switch a.Len.From {
		case systable.LenRet, systable.LenArg, systable.LenMinArgRet:
			return a.Len.Size <= 1
		}
	}
	return false
}

// IsContent reports whether a captured buffer is file or socket content,
// data a program passes on, as opposed to a path, a struct or argv.
func IsContent(row *systable.Syscall, mem *trace.Mem) bool { return isContent(row, mem) }
