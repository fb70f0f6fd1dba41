package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/trace"
)

// contentHere hashes files as the environment the runs saw has them
// (bisect.Options.ContentHere), each path once: a library opened by every
// process of a run is hashed once per locate.
type contentHere struct {
	root string
	mu   sync.Mutex
	seen map[string]contentHash
}

// contentHash is one path's hash, or why it has none.
type contentHash struct {
	sum trace.Hash
	err error
}

// newContentHere hashes files under root ("/" or a joined container's
// /proc/PID/root).
func newContentHere(root string) *contentHere {
	return &contentHere{root: root, seen: map[string]contentHash{}}
}

// hash is the SHA-256 of the file at path here.
func (c *contentHere) hash(path string) (trace.Hash, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if h, ok := c.seen[path]; ok {
		return h.sum, h.err
	}
	var h contentHash
	h.sum, h.err = hashInRoot(c.root, path)
	c.seen[path] = h
	return h.sum, h.err
}

// hashInRoot is the SHA-256 of the file at path inside root.
func hashInRoot(root, path string) (trace.Hash, error) {
	f, err := launch.OpenInRoot(root, path)
	if err != nil {
		return trace.Hash{}, err
	}
	defer f.Close()
	return contentSHA256(f)
}

// contentSHA256 is the SHA-256 of what f holds.
func contentSHA256(f *os.File) (trace.Hash, error) {
	var sum trace.Hash
	d := sha256.New()
	if _, err := io.Copy(d, f); err != nil {
		return sum, fmt.Errorf("hash %s: %w", f.Name(), err)
	}
	copy(sum[:], d.Sum(nil))
	return sum, nil
}
