package render

import "github.com/envbisect/envbisect/systable"

// layout holds the structs whose layout differs between architectures,
// from the syscall table's struct layouts. It is chosen by the trace's
// architecture, not by the one this binary runs on.
type layout struct {
	stat systable.Struct
}

// layoutFor returns the layout of arch, or nil when it is not known (then
// arch-dependent structs print as their size).
func layoutFor(arch string) *layout {
	st, ok := systable.StatStruct(arch)
	if !ok {
		return nil
	}
	return &layout{stat: st}
}
