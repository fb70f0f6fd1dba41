package tracer

import (
	"fmt"
	"path"
	"strings"
)

// excluder decides which paths' contents stay out of the trace.
type excluder struct {
	globs []string
}

// newExcluder validates globs. A glob is matched against the whole
// absolute path with path.Match rules ("*" does not cross "/"); a glob
// ending in "/**" matches everything below that directory.
func newExcluder(globs []string) (excluder, error) {
	for _, g := range globs {
		pat := strings.TrimSuffix(g, "/**")
		if _, err := path.Match(pat, "/"); err != nil {
			return excluder{}, fmt.Errorf("bad --exclude-content pattern %q: %w", g, err)
		}
	}
	return excluder{globs: globs}, nil
}

func (e excluder) match(p string) bool {
	if p == "" {
		return false
	}
	for _, g := range e.globs {
		if dir, ok := strings.CutSuffix(g, "/**"); ok {
			if ok, _ := path.Match(dir, p); ok {
				return true
			}
			for d := path.Dir(p); d != "/" && d != "."; d = path.Dir(d) {
				if ok, _ := path.Match(dir, d); ok {
					return true
				}
			}
			continue
		}
		if ok, _ := path.Match(g, p); ok {
			return true
		}
	}
	return false
}
