package envdiff

import (
	"slices"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// listKey is the fd a directory is listed through.
type listKey struct {
	proc uint32
	fd   int32
}

// listing is a directory listing under way: the getdents calls on one fd
// until one returns 0.
type listing struct {
	path  string
	seq   uint64
	names map[string]bool
}

// list reads one getdents call on the directory p: the names it gave
// join the listing under way on its fd; a return of 0 completes it. The
// first complete listing of a directory is its entries in the good run.
func (w *walker) list(c *trace.Call, row *systable.Syscall, p string, m *trace.Mem, d64 bool) {
	key := listKey{c.Proc, row.FirstFD(c.Args)}
	l := w.lists[key]
	if l == nil || l.path != p {
		l = &listing{path: p, seq: c.Seq, names: map[string]bool{}}
		w.lists[key] = l
	}
	if c.Ret == 0 {
		delete(w.lists, key)
		if r := w.rec(p); usable(p) && !r.listed && r.changed == 0 {
			r.entries, r.listed, r.listedAt = sortedNames(l.names), true, l.seq
			w.see(p, viewFollow, existsObs(l.seq, true, true))
		}
		return
	}
	if m == nil || m.Flag&trace.Truncated != 0 {
		delete(w.lists, key) // a listing with a hole says nothing of the whole
		return
	}
	ents, ok := systable.Dirents(m.Data, d64)
	if !ok {
		delete(w.lists, key)
		return
	}
	for _, e := range ents {
		name := string(e.Name)
		if i := indexNUL(e.Name); i >= 0 {
			name = name[:i]
		}
		if name != "." && name != ".." && name != "" {
			l.names[name] = true
		}
	}
}

func indexNUL(b []byte) int { return slices.Index(b, 0) }

func sortedNames(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}
