package systable

import (
	"strconv"
	"strings"
)

// FlagValue is one named value of a flag set.
type FlagValue struct {
	Name  string
	Value uint64
}

// FlagSet names the values of a flag or enum argument. The same data is
// used to print (O_RDONLY|O_CLOEXEC) and to decide edges (O_CREAT).
type FlagSet struct {
	Name string
	// Mask, when non-zero, is a field inside the value that holds an enum
	// (O_ACCMODE for open flags): Enum values are matched against
	// value&Mask, Bits against the rest.
	Mask uint64
	Enum []FlagValue
	Bits []FlagValue
}

// Format renders v as C would write it: O_WRONLY|O_CREAT|O_TRUNC, with any
// unnamed remainder in hex.
func (f *FlagSet) Format(v uint64) string {
	var parts []string
	rest := v
	if f.Mask != 0 || (len(f.Enum) > 0 && len(f.Bits) == 0) {
		field := v
		if f.Mask != 0 {
			field = v & f.Mask
		}
		named := false
		for _, e := range f.Enum {
			if e.Value == field {
				parts = append(parts, e.Name)
				named = true
				break
			}
		}
		if named || f.Mask != 0 {
			// An unnamed zero field says nothing when other bits follow
			// (a thread clone's CSIGNAL is 0).
			if !named && (field != 0 || v&^f.Mask == 0) {
				parts = append(parts, "0x"+strconv.FormatUint(field, 16))
			}
			if f.Mask != 0 {
				rest = v &^ f.Mask
			} else {
				rest = 0
			}
		}
	}
	return strings.Join(f.appendBits(parts, rest), "|")
}

// FormatBits renders v by the set's Bits alone, any remainder in hex:
// for masks, in which an enum field reading zero means nothing.
func (f *FlagSet) FormatBits(v uint64) string {
	return strings.Join(f.appendBits(nil, v), "|")
}

// appendBits appends the names of the bits set in rest, then whatever
// no name covers in hex (or "0x0" when nothing was named at all).
func (f *FlagSet) appendBits(parts []string, rest uint64) []string {
	for _, b := range f.Bits {
		if b.Value != 0 && rest&b.Value == b.Value {
			parts = append(parts, b.Name)
			rest &^= b.Value
		}
	}
	if rest != 0 || len(parts) == 0 {
		parts = append(parts, "0x"+strconv.FormatUint(rest, 16))
	}
	return parts
}

// Has reports whether the bit named name is set in v.
func (f *FlagSet) Has(v uint64, name string) bool {
	for _, b := range f.Bits {
		if b.Name == name {
			return v&b.Value == b.Value
		}
	}
	return false
}

// fv is one named value.
func fv(name string, value uint64) FlagValue { return FlagValue{Name: name, Value: value} }

// neg32 is how a negative value of a 32-bit C int argument is listed:
// its two's complement in the low 32 bits (see Arg.Int32).
func neg32(v int32) uint64 { return uint64(uint32(v)) }
