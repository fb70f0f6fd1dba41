package align

import "github.com/envbisect/envbisect/trace"

// maxInterned bounds the distinct key strings an interner holds.
const maxInterned = 1 << 16

// interner shares the strings of equal keys: a thread of a million calls
// over a thousand files has a thousand distinct keys, and its keys then
// hold a thousand strings, not a million. Past maxInterned distinct
// strings, new ones are not shared.
type interner struct {
	strs map[string]string
}

func newInterner() *interner { return &interner{strs: make(map[string]string)} }

// keys returns the keys key gives calls, their strings shared.
func (in *interner) keys(calls []*trace.Call, key func(*trace.Call) Key) []Key {
	out := make([]Key, len(calls))
	for i, c := range calls {
		k := key(c)
		if s, ok := in.strs[k.Res]; ok {
			k.Res = s
		} else if len(in.strs) < maxInterned {
			in.strs[k.Res] = k.Res
		}
		out[i] = k
	}
	return out
}
