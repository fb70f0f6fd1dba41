package testutil

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"

	"github.com/envbisect/envbisect/trace"
)

// Contents are file contents held in memory, by SHA-256: what a
// materialized run's objects write (a sandbox.Contents) in tests that
// need no trace.
type Contents map[trace.Hash][]byte

// Add keeps s and returns its hash.
func (c Contents) Add(s string) trace.Hash {
	h := trace.Hash(sha256.Sum256([]byte(s)))
	c[h] = []byte(s)
	return h
}

// OpenHash returns the content of hash h.
func (c Contents) OpenHash(h trace.Hash) (io.ReadCloser, error) {
	b, ok := c[h]
	if !ok {
		return nil, fmt.Errorf("no content %x", h[:4])
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}
