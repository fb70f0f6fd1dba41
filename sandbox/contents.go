package sandbox

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/trace"
)

// Contents gives the bytes an envobj.OpWrite names by their SHA-256.
// Enter checks every content it writes against its hash.
type Contents interface {
	// OpenHash streams the content whose SHA-256 is h; an error when it
	// has none.
	OpenHash(h trace.Hash) (io.ReadCloser, error)
}

// BundleEntry says where one content is in a bundle file: Size bytes
// from Offset.
type BundleEntry struct {
	SHA256 trace.Hash `json:"sha256"`
	Offset int64      `json:"offset"`
	Size   int64      `json:"size"`
}

// BundleIndex is a bundle file's table of contents.
type BundleIndex []BundleEntry

// find returns the entry of h.
func (idx BundleIndex) find(h trace.Hash) (BundleEntry, bool) {
	for _, e := range idx {
		if e.SHA256 == h {
			return e, true
		}
	}
	return BundleEntry{}, false
}

// ContentHashes returns the hashes ops' writes name, each once, in the
// order of the ops: what a run's bundle must hold.
func ContentHashes(ops []envobj.Op) []trace.Hash {
	var out []trace.Hash
	seen := map[trace.Hash]bool{}
	for _, op := range ops {
		if op.Kind == envobj.OpWrite && !seen[op.Content] {
			seen[op.Content] = true
			out = append(out, op.Content)
		}
	}
	return out
}

// dirOps returns, by path, the directory each OpMkdir of ops makes: a
// missing parent of another object takes its mode and owner.
func dirOps(ops []envobj.Op) map[string]envobj.Op {
	out := map[string]envobj.Op{}
	for _, op := range ops {
		if op.Kind == envobj.OpMkdir {
			if _, seen := out[op.Path]; !seen {
				out[op.Path] = op
			}
		}
	}
	return out
}

// defaultDir is what a missing parent directory is made as when no
// OpMkdir names it: root's, 0755.
func defaultDir(p string) envobj.Op {
	return envobj.Op{Kind: envobj.OpMkdir, Path: p, Mode: 0o755}
}

// MemContents are contents held in memory, by SHA-256: the Contents of
// objects that come from no trace (tests, a spec built by hand).
type MemContents map[trace.Hash][]byte

// Add keeps s and returns its hash.
func (c MemContents) Add(s string) trace.Hash {
	h := trace.Hash(sha256.Sum256([]byte(s)))
	c[h] = []byte(s)
	return h
}

// OpenHash returns the content whose hash is h.
func (c MemContents) OpenHash(h trace.Hash) (io.ReadCloser, error) {
	b, ok := c[h]
	if !ok {
		return nil, fmt.Errorf("no content %x", h[:4])
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}
