package align

import (
	"bytes"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// FingerprintLen is how many calls a fingerprint holds.
const FingerprintLen = 16

// Fingerprint is what a thread does first: the keys of its first
// significant calls, and the name it gave itself, if any. Two runs of a
// program give a worker thread the same fingerprint even when the workers
// are created in another order.
type Fingerprint struct {
	Keys []Key
	Name string // from prctl(PR_SET_NAME) or a write to /proc/<pid>/task/<tid>/comm
}

// NewFingerprint returns the fingerprint of a thread whose calls (in
// order) are calls. It reads until it has FingerprintLen significant calls
// and a name, or the calls run out; a live thread can be fingerprinted
// from the calls seen so far.
func NewFingerprint(k *Keyer, calls []*trace.Call) Fingerprint {
	var f Fingerprint
	for _, c := range calls {
		if f.Name == "" {
			f.Name = threadName(k, c)
		}
		if len(f.Keys) < FingerprintLen && significant(k.rows.ByNr(int(c.Nr))) {
			f.Keys = append(f.Keys, k.Key(c))
		}
		if len(f.Keys) == FingerprintLen && f.Name != "" {
			break
		}
	}
	return f
}

// significant reports whether a call says something about what a thread
// does: not memory management, signal set-up, thread-local set-up or
// another call that every thread makes alike.
func significant(row *systable.Syscall) bool {
	if row.Effects&(systable.MapsMemory|systable.ChangesSignals) != 0 {
		return false
	}
	return !row.Routine
}

// threadName returns the name c gives its thread, or "".
func threadName(k *Keyer, c *trace.Call) string {
	row := k.rows.ByNr(int(c.Nr))
	var data []byte
	switch {
	case row.RequestEffect(c.Args)&systable.ReqNamesThread != 0:
		if m := c.MemOf(1, trace.PartWhole); m != nil {
			data = m.Data
		}
	case row.ArgHolds(1) == systable.HoldsFileData && c.Path != "" && bytes.HasSuffix([]byte(k.Path(c.Path)), []byte("/comm")):
		if m := c.MemOf(1, trace.PartWhole); m != nil {
			data = bytes.TrimRight(m.Data, "\n")
		}
	default:
		return ""
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	return string(data)
}

// Similarity returns how alike two fingerprints are, from 0 (nothing in
// common) to 1 (the same calls in the same order): the length of the
// longest common subsequence of their keys over the longer length. Two
// empty fingerprints have similarity 0: they say nothing.
func Similarity(a, b Fingerprint) float64 {
	n := max(len(a.Keys), len(b.Keys))
	if n == 0 {
		return 0
	}
	return float64(lcsLen(a.Keys, b.Keys)) / float64(n)
}

// lcsLen is the length of the longest common subsequence of short key
// sequences.
func lcsLen(a, b []Key) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
