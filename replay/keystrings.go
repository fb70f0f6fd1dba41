package replay

import "github.com/envbisect/envbisect/align"

// maxKeyStrings bounds the distinct key strings a keyStrings shares.
const maxKeyStrings = 1 << 16

// keyStrings shares the strings of equal recorded keys: a trace of a
// million calls on a thousand files has a thousand distinct keys, and the
// recording's keys then hold a thousand strings, not a million (16 bytes
// or more each). Past maxKeyStrings distinct strings, new ones are kept
// as they are.
type keyStrings struct {
	strs map[string]string
}

func newKeyStrings() *keyStrings { return &keyStrings{strs: make(map[string]string)} }

// share returns k with its string shared with the equal keys before it.
func (ks *keyStrings) share(k align.Key) align.Key {
	if s, ok := ks.strs[k.Res]; ok {
		k.Res = s
	} else if len(ks.strs) < maxKeyStrings {
		ks.strs[k.Res] = k.Res
	}
	return k
}
