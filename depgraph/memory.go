package depgraph

import (
	"fmt"

	"github.com/envbisect/envbisect/systable"
)

// isMmap reports whether the call maps memory and may take an fd (mmap).
func isMmap(x *callCtx) bool {
	if x.eff&systable.MapsMemory == 0 {
		return false
	}
	for _, a := range x.row.Args {
		if a.Kind == systable.FD {
			return true
		}
	}
	return false
}

// memRange returns the address range a memory call acts on, for rows
// whose first two arguments are an address and a length (munmap,
// mprotect, mremap, msync, madvise ...).
func memRange(x *callCtx) (start, end uint64, ok bool) {
	a := x.row.Args
	if len(a) < 2 || a[0].Kind != systable.Hex || a[1].Kind != systable.Int {
		return 0, 0, false
	}
	return x.c.Args[0], x.c.Args[0] + roundPage(x.c.Args[1]), true
}

func roundPage(n uint64) uint64 { return (n + pageSize - 1) &^ (pageSize - 1) }

// useMemory adds the edges of a call on memory that a file is mapped in.
func (b *builder) useMemory(x *callCtx) {
	if x.eff&systable.MapsMemory == 0 || isMmap(x) {
		return
	}
	start, end, ok := memRange(x)
	if !ok {
		return
	}
	for _, m := range x.p.mem.overlapping(start, end) {
		b.dep(x, m.def, ByMapping, m.res)
		x.acts(m.res)
		x.maps = append(x.maps, m)
	}
}

// defineMemory records the mappings a successful call makes or removes.
func (b *builder) defineMemory(x *callCtx) {
	if x.eff&systable.MapsMemory == 0 {
		return
	}
	if isMmap(x) {
		start := uint64(x.c.Ret)
		end := start + roundPage(x.c.Args[1])
		x.p.mem.unmap(start, end) // MAP_FIXED replaces what was there
		if len(x.used) == 0 {
			return // anonymous
		}
		d := x.used[0].s.d
		what := d.path
		if what == "" {
			what = d.res.Name()
		}
		r := b.newResource(Mapping, fmt.Sprintf("%s at %#x (#%d)", what, start, x.seq), x.seq)
		r.Path, r.setMore().address = d.path, start
		b.descs[r.ID] = d
		x.p.mem.maps = append(x.p.mem.maps, mapping{start: start, end: end, res: r, d: d, def: x.seq})
		return
	}
	if x.row.Unmaps {
		if start, end, ok := memRange(x); ok {
			x.p.mem.unmap(start, end)
		}
	}
}
