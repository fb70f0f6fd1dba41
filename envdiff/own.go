package envdiff

import (
	"math"
	"path"
	"strings"

	"github.com/envbisect/envbisect/tracefile"
)

// isOwn reports whether r's path is the command's own work: it changed
// the path and the recording saw nothing of it before, or it made a
// directory above it before the path was first named.
func (c *comparer) isOwn(r *pathRec) bool {
	if r.changed != 0 && !r.hasObs() {
		return true
	}
	first := r.first
	if first == 0 {
		first = math.MaxUint64
	}
	for a := r.path; a != "/"; {
		a = path.Dir(a)
		if ar := c.recs[a]; ar != nil && ar.created != 0 && ar.created < first {
			return true
		}
	}
	return false
}

// notOwn are names of directory dir without those the command created,
// removed or changed: its own work, not the directory's entries.
func (c *comparer) notOwn(dir string, names []string) []string {
	out := []string{}
	for _, n := range names {
		q := path.Join(dir, n)
		if r := c.recs[q]; r != nil && (r.changed != 0 || c.own[q]) || c.ignored(q) {
			continue
		}
		out = append(out, n)
	}
	return out
}

// ignored reports whether p is envbisect's own: one of Options.Ignore or
// under one, or a trace a recording was writing (the good run's listing
// of the directory it recorded to may show it).
func (c *comparer) ignored(p string) bool {
	if tracefile.IsPartialName(path.Base(p)) {
		return true
	}
	for _, i := range c.opts.Ignore {
		if p == i || strings.HasPrefix(p, strings.TrimSuffix(i, "/")+"/") {
			return true
		}
	}
	return false
}
