package bisect

import (
	"maps"
	"slices"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// A directory listing that differs is said by its entries (the names
// only one side lists), never by the records' bytes: getdents fills in
// inode numbers and hash cookies that differ between any two copies of a
// directory.

// listingDiff is, for the out-buffers good and here of a directory
// listing (ctype a linux_dirent64 or linux_dirent record array), the
// names each side lists alone; ok false when the buffer is not a listing
// or a side does not parse or was stored in part.
func listingDiff(ctype string, good, here *trace.Mem) (*render.DirEntries, bool) {
	d64, ok := direntKind(ctype)
	if !ok || good == nil || here == nil || (good.Flag|here.Flag)&trace.Truncated != 0 {
		return nil, false
	}
	g, ok1 := direntNames(good.Data, d64)
	h, ok2 := direntNames(here.Data, d64)
	if !ok1 || !ok2 {
		return nil, false
	}
	return entriesOf(g, h), true
}

// direntKind says whether ctype is a directory listing's record array,
// and whether its records are getdents64's.
func direntKind(ctype string) (d64, ok bool) {
	switch systable.StructOf(ctype).Is {
	case systable.StructDirent64:
		return true, true
	case systable.StructDirent:
		return false, true
	}
	return false, false
}

// direntNames are the names the records in b give, "." and ".." left
// out.
func direntNames(b []byte, d64 bool) (map[string]bool, bool) {
	ents, ok := systable.Dirents(b, d64)
	if !ok {
		return nil, false
	}
	out := map[string]bool{}
	for _, e := range ents {
		name := e.Name
		if i := slices.Index(name, 0); i >= 0 {
			name = name[:i]
		}
		if n := string(name); n != "." && n != ".." && n != "" {
			out[n] = true
		}
	}
	return out, true
}

// entriesOf are the names only here and only good list, sorted.
func entriesOf(good, here map[string]bool) *render.DirEntries {
	e := &render.DirEntries{}
	for _, n := range slices.Sorted(maps.Keys(here)) {
		if !good[n] {
			e.OnlyHere = append(e.OnlyHere, n)
		}
	}
	for _, n := range slices.Sorted(maps.Keys(good)) {
		if !here[n] {
			e.OnlyGood = append(e.OnlyGood, n)
		}
	}
	return e
}

// groupListing widens cu's listing diff (DataDiff.Entries, from its own
// call) to every listing call of its group that both runs made: a
// directory too large for one getdents call is listed by several, and a
// name one side gives in its first call the other may give in its next.
func (s *search) groupListing(cu *Culprit, gr *depgraph.Group, live map[uint64]*trace.Call) {
	if cu.DataDiff == nil || cu.DataDiff.Entries == nil || gr == nil {
		return
	}
	good, here := map[string]bool{}, map[string]bool{}
	rows := s.rows()
	for _, q := range gr.Calls {
		rec, ok := s.g.Call(q)
		l := live[q]
		if !ok || l == nil || rec.Errno() != 0 || l.Errno() != 0 || rec.NoReturn || l.NoReturn {
			continue
		}
		for _, gb := range outBuffers(rows, rec) {
			d64, ok := direntKind(gb.ctype)
			if !ok {
				continue
			}
			var hm *trace.Mem
			for _, hb := range outBuffers(rows, l) {
				if hb.key == gb.key {
					hm = hb.m
				}
			}
			if hm == nil || (gb.m.Flag|hm.Flag)&trace.Truncated != 0 {
				return // a side not stored whole: the culprit's own call says what is known
			}
			g, ok1 := direntNames(gb.m.Data, d64)
			h, ok2 := direntNames(hm.Data, d64)
			if !ok1 || !ok2 {
				return
			}
			maps.Copy(good, g)
			maps.Copy(here, h)
		}
	}
	cu.DataDiff.Entries = entriesOf(good, here)
}
