package render

import (
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// FieldDiff is one member of a struct the culprit's kernel filled in
// (struct stat, statx, rlimit, ...) whose value differs between the good
// run and here, each side as show prints it.
type FieldDiff struct {
	Field string `json:"field"`
	Good  string `json:"good"`
	Here  string `json:"here"`
}

// StructDiff decodes good and here as the C type ctype (systable's
// struct layouts, as the trace's architecture lays them out: h) and
// returns the members whose values differ, in the struct's order,
// leaving out those that differ between any two runs by nature
// (systable's Volatile: inode numbers, times); nil
// when the type is not one decoded, a side does not fit it, or nothing
// decoded differs.
func StructDiff(tab Rows, h *trace.Header, ctype string, good, here []byte) []FieldDiff {
	d := newDecoder(tab)
	d.setArch(h)
	a, okA := d.decodeStruct(ctype, good).(object)
	b, okB := d.decodeStruct(ctype, here).(object)
	if !okA || !okB {
		return nil
	}
	volatile := map[string]bool{}
	for _, f := range systable.StructOf(ctype).Fields {
		volatile[f.Name] = f.Volatile
	}
	if d.layout != nil {
		for _, f := range d.layout.stat.Fields {
			volatile[f.Name] = volatile[f.Name] || f.Volatile
		}
	}
	var out []FieldDiff
	for _, fa := range a {
		if fa.only == textOnly || volatile[fa.name] {
			continue // "...", or a member that always differs
		}
		fb, ok := b.field(fa.name)
		ga := fa.v.text(0)
		if !ok {
			out = append(out, FieldDiff{Field: fa.name, Good: ga, Here: "(absent)"})
			continue
		}
		if hb := fb.v.text(0); hb != ga {
			out = append(out, FieldDiff{Field: fa.name, Good: ga, Here: hb})
		}
	}
	for _, fb := range b {
		if _, ok := a.field(fb.name); !ok && fb.only != textOnly && !volatile[fb.name] {
			out = append(out, FieldDiff{Field: fb.name, Good: "(absent)", Here: fb.v.text(0)})
		}
	}
	return out
}

// field returns the member called name.
func (o object) field(name string) (field, bool) {
	for _, f := range o {
		if f.name == name {
			return f, true
		}
	}
	return field{}, false
}
