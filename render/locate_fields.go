package render

import (
	"time"

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
// (systable's Volatile: inode numbers, times) unless programs decide by
// them all the same (Judged: a file's modification time, which make
// compares); a time in seconds since the epoch (Epoch) is given as a
// date. nil when the type is not one decoded, a side does not fit it, or
// nothing decoded differs.
func StructDiff(tab Rows, h *trace.Header, ctype string, good, here []byte) []FieldDiff {
	d := newDecoder(tab)
	d.setArch(h)
	a, okA := d.decodeStruct(ctype, good).(object)
	b, okB := d.decodeStruct(ctype, here).(object)
	if !okA || !okB {
		return nil
	}
	layout := map[string]systable.Field{}
	for _, f := range systable.StructOf(ctype).Fields {
		layout[f.Name] = f
	}
	if d.layout != nil {
		for _, f := range d.layout.stat.Fields {
			layout[f.Name] = f
		}
	}
	left := func(name string) bool { f := layout[name]; return f.Volatile && !f.Judged }
	text := func(fl field) string {
		if n, ok := fl.v.json(0).(int64); ok && layout[fl.name].Epoch {
			return epochText(n)
		}
		return fl.v.text(0)
	}
	var out []FieldDiff
	for _, fa := range a {
		if fa.only == textOnly || left(fa.name) {
			continue // "...", or a member that always differs
		}
		fb, ok := b.field(fa.name)
		ga := text(fa)
		if !ok {
			out = append(out, FieldDiff{Field: fa.name, Good: ga, Here: "(absent)"})
			continue
		}
		if hb := text(fb); hb != ga {
			out = append(out, FieldDiff{Field: fa.name, Good: ga, Here: hb})
		}
	}
	for _, fb := range b {
		if _, ok := a.field(fb.name); !ok && fb.only != textOnly && !left(fb.name) {
			out = append(out, FieldDiff{Field: fb.name, Good: "(absent)", Here: text(fb)})
		}
	}
	return out
}

// DecodesStruct reports whether good and here both decode as the C type
// ctype, as the trace's architecture (h) lays it out: whether StructDiff
// can say how they differ member by member.
func DecodesStruct(tab Rows, h *trace.Header, ctype string, good, here []byte) bool {
	d := newDecoder(tab)
	d.setArch(h)
	_, okA := d.decodeStruct(ctype, good).(object)
	_, okB := d.decodeStruct(ctype, here).(object)
	return okA && okB
}

// epochText is a time in seconds since the epoch as a date in UTC:
// "2026-11-25 10:05:00 UTC".
func epochText(sec int64) string {
	return time.Unix(sec, 0).UTC().Format("2006-01-02 15:04:05 MST")
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
