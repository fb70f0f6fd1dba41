package render

import (
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// The words of a capability set that differs: the capabilities by name,
// never the set's hex value ("CAP_CHOWN: in the good run's bounding set,
// not here").

// capsDiff are the capabilities of a caps item's set that the good run
// had and here lacks (lost), and those here has that the good run did
// not (gained), by name; ok false when the item is not a capability set
// or a side is not a set (not recorded, not parsed).
func capsDiff(it StartItem) (lost, gained []string, ok bool) {
	if trace.StartKind(it.Kind) != trace.StartCaps || it.Good == nil || it.Here == nil {
		return nil, nil, false
	}
	g, err1 := strconv.ParseUint(*it.Good, 16, 64)
	h, err2 := strconv.ParseUint(*it.Here, 16, 64)
	if err1 != nil || err2 != nil {
		return nil, nil, false
	}
	return trace.CapabilityNames(g &^ h), trace.CapabilityNames(h &^ g), true
}

// capsPlain says a caps item's difference by name: "CAP_CHOWN: in the
// good run's bounding set, not here", "CAP_SYS_ADMIN: in the bounding
// set here, not in the good run's"; "" when capsDiff cannot tell.
func capsPlain(it StartItem) string {
	lost, gained, ok := capsDiff(it)
	if !ok || len(lost)+len(gained) == 0 {
		return ""
	}
	var parts []string
	if len(lost) > 0 {
		parts = append(parts, andList(lost)+": in the good run's "+it.Name+" set, not here")
	}
	if len(gained) > 0 {
		parts = append(parts, andList(gained)+": in the "+it.Name+" set here, not in the good run's")
	}
	return strings.Join(parts, "; ")
}
