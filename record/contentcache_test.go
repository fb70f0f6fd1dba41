package record

import (
	"bytes"
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
)

// Recording cat of a file three times with one content cache: the first
// stores everything from the files, the second from the cache, with the
// same hashes and bytes; after the file is rewritten in place with other
// bytes of the same size and its mtime put back, the third records the
// new bytes (its ctime changed: a changed file misses), and a corrupt
// entry is refused and replaced.
func TestContentCacheAcrossRecordings(t *testing.T) {
	testutil.Require(t, testutil.Binary("cat"))
	cat, _ := exec.LookPath("cat")
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	data := filepath.Join(dir, "data.txt")
	old := bytes.Repeat([]byte("the good environment's bytes\n"), 1000)
	if err := os.WriteFile(data, old, 0o644); err != nil {
		t.Fatal(err)
	}
	opts := Options{ContentCache: cache}

	sum, tr := recordIn(t, opts, cat, data)
	if sum.CacheHits != 0 || sum.CacheRefused != 0 {
		t.Fatalf("first recording: %d hits, %d refused; want none", sum.CacheHits, sum.CacheRefused)
	}
	first := objectOf(tr, data)
	if first == nil || !bytes.Equal(content(t, tr, first), old) {
		t.Fatalf("first recording: %s not kept as it is", data)
	}
	ents, _ := os.ReadDir(cache)
	if len(ents) < 3 { // cat, ld.so, libc, data.txt at least
		t.Fatalf("the cache holds %d entries after the first recording", len(ents))
	}

	sum, tr = recordIn(t, opts, cat, data)
	if sum.CacheHits < 3 {
		t.Errorf("second recording: %d hits; want cat, its libraries and the data", sum.CacheHits)
	}
	second := objectOf(tr, data)
	if second == nil || second.SHA256 != trace.Hash(sha256.Sum256(old)) || !bytes.Equal(content(t, tr, second), old) {
		t.Fatalf("second recording: %s from the cache differs from the file", data)
	}
	if err := tr.VerifyContent(); err != nil {
		t.Fatal(err)
	}

	// Same size, same mtime, other bytes.
	fi, err := os.Stat(data)
	if err != nil {
		t.Fatal(err)
	}
	changed := bytes.ToUpper(old)
	f, err := os.OpenFile(data, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(changed, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(data, time.Now(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	_, tr = recordIn(t, opts, cat, data)
	third := objectOf(tr, data)
	if third == nil || third.SHA256 != trace.Hash(sha256.Sum256(changed)) || !bytes.Equal(content(t, tr, third), changed) {
		t.Fatalf("after the file changed (same size and mtime), the trace holds its old version")
	}

	// Every entry damaged: each is refused, and the file stored from itself.
	ents, _ = os.ReadDir(cache)
	for _, e := range ents {
		p := filepath.Join(cache, e.Name())
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)/2] ^= 0xff
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	sum, tr = recordIn(t, opts, cat, data)
	if sum.CacheHits != 0 || sum.CacheRefused < 3 {
		t.Errorf("damaged cache: %d hits, %d refused; want none and every entry of cat's files", sum.CacheHits, sum.CacheRefused)
	}
	if err := tr.VerifyContent(); err != nil {
		t.Fatal(err)
	}
	if got := objectOf(tr, data); got == nil || !bytes.Equal(content(t, tr, got), changed) {
		t.Fatal("damaged cache: the data is not stored from the file")
	}
}
