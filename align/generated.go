package align

import (
	"path"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// Generated names (systable's NameGen): a live call that creates a name
// with a generated part (mkstemp's XXXXXX, a tempfile or mktemp name, a
// pid) never has its recorded counterpart's key. Like says which recorded
// key it stands for; once matched, MapName keys the live name, and every
// path under it, as the recorded one for the rest of the run, so the
// later calls on it (its fd's reads and writes, the unlink, a file made
// inside a temporary directory) match their recorded calls by key.

// Like returns, for live call c whose key is key, whether a recorded key
// is the same call under another generated name: the same syscall, the
// same key beyond the path, and a recorded path from which c's differs
// only in a generated part of the kinds c's row and flags allow
// (systable's GeneratedIn: an open with O_CREAT|O_EXCL, a mkdir). It
// returns nil when c creates no such name.
func (k *Keyer) Like(c *trace.Call, key Key) func(rec Key) bool {
	gen := k.rows.ByNr(int(c.Nr)).GeneratedIn(c.Args)
	if gen == 0 || c.Path == "" || c.Path2 != "" {
		return nil
	}
	live := k.Path(c.Path)
	if !strings.HasPrefix(key.Res, live) {
		return nil
	}
	rest := key.Res[len(live):] // the enum arguments
	return func(rec Key) bool {
		if rec.Nr != key.Nr || !strings.HasSuffix(rec.Res, rest) {
			return false
		}
		return gen.Matches(rec.Res[:len(rec.Res)-len(rest)], live)
	}
}

// MapName keys live, an absolute name a live call created, and every
// path under it as rec, the name its recorded counterpart created (a
// live call matched by Like). It makes the keyer the live run's own: a
// keyer that maps is not shared.
func (k *Keyer) MapName(live, rec string) {
	if k.names == nil {
		k.names = make(map[string]string)
	}
	k.names[live] = rec
}

// mapped returns what p, or its nearest mapped ancestor with the rest
// appended, is keyed as (MapName). With no name mapped it costs one check
// of an empty map.
func (k *Keyer) mapped(p string) (string, bool) {
	if len(k.names) == 0 || !strings.HasPrefix(p, "/") {
		return "", false
	}
	for q := p; ; q = path.Dir(q) {
		if to, ok := k.names[q]; ok {
			return to + p[len(q):], true
		}
		if q == "/" {
			return "", false
		}
	}
}
