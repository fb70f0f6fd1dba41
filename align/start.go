package align

import "github.com/envbisect/envbisect/trace"

// StartDiff is a start event that differs between two runs: present on
// both sides with other values, or on one side only (A or B nil).
type StartDiff struct {
	Kind trace.StartKind
	Name string
	A, B *trace.StartEvent
}

// volatileAuxv are auxiliary vector entries that are addresses (of the
// stack, the vDSO, the loaded program) or random bytes, different in
// every run that does not pin them.
var volatileAuxv = map[string]bool{
	"AT_SYSINFO_EHDR": true, "AT_PHDR": true, "AT_BASE": true, "AT_ENTRY": true,
	"AT_RANDOM": true, "AT_EXECFN": true, "AT_PLATFORM": true, "AT_BASE_PLATFORM": true,
}

// CompareStart compares the start events of two runs, matched by kind and
// name. The result follows A's order, then B's events that A lacks.
// Address-like auxv entries are left out unless o.AllFields, and the
// descriptors the command started with are compared by the kind of
// object they are (trace.FDObjectKind: a pipe's inode differs between
// any two runs).
func CompareStart(a, b []trace.StartEvent, o Options) []StartDiff {
	type id struct {
		kind trace.StartKind
		name string
		nth  int // for repeated kind and name
	}
	key := func(evs []trace.StartEvent) ([]id, map[id]*trace.StartEvent) {
		count := map[id]int{}
		ids := make([]id, len(evs))
		byID := make(map[id]*trace.StartEvent, len(evs))
		for i := range evs {
			k := id{kind: evs[i].Kind, name: evs[i].Name}
			n := count[k]
			count[k] = n + 1
			k.nth = n
			ids[i] = k
			byID[k] = &evs[i]
		}
		return ids, byID
	}
	idsA, byA := key(a)
	idsB, byB := key(b)
	skip := func(k id) bool {
		return !o.AllFields && k.kind == trace.StartAuxv && volatileAuxv[k.name]
	}
	var out []StartDiff
	for _, k := range idsA {
		if skip(k) {
			continue
		}
		ea, eb := byA[k], byB[k]
		if eb != nil && sameStartValue(k.kind, ea.Value, eb.Value, o) {
			continue
		}
		out = append(out, StartDiff{Kind: k.kind, Name: k.name, A: ea, B: eb})
	}
	for _, k := range idsB {
		if skip(k) || byA[k] != nil {
			continue
		}
		out = append(out, StartDiff{Kind: k.kind, Name: k.name, B: byB[k]})
	}
	return out
}

// sameStartValue reports whether two values of a start event of kind
// are the same, leaving out what differs between any two runs unless
// o.AllFields.
func sameStartValue(kind trace.StartKind, a, b string, o Options) bool {
	if kind == trace.StartFD && !o.AllFields {
		return trace.FDObjectKind(a) == trace.FDObjectKind(b)
	}
	return a == b
}
