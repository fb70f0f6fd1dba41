package tracefile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A cache is left as it is until it is written: OpenContentCache, Get
// (hit, miss, refused) and Trim of a cache whose directory does not
// exist create nothing; the first Put makes the directory, mode 0700
// (it holds file contents), and its parents. A path that cannot hold a
// cache is refused at once.
func TestContentCacheCreatesNothingUntilPut(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "a", "cache")
	c, err := OpenContentCache(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	files := sampleFiles()[1:2] // the conf file
	key := cacheKeyOf(0, files[0].content)
	if e, err := c.Get(key); e != nil || err != nil {
		t.Fatalf("Get in a cache that does not exist: %v, %v", e, err)
	}
	if n, err := c.Trim(); n != 0 || err != nil {
		t.Fatalf("Trim of a cache that does not exist: %d, %v", n, err)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Fatalf("opening and reading the cache made %v", ents[0].Name())
	}
	fillCache(t, Options{}, c, files)
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the cache's directory after Put: %v; want mode 0700", err)
	}
	p := c.path(key)
	before, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if e, err := c.Get(key); e == nil || err != nil {
		t.Fatalf("Get: %v, %v", e, err)
	}
	if after, err := os.Stat(p); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("Get of a hit changed the entry's mtime (%v)", err)
	}

	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{file, filepath.Join(file, "cache")} {
		if _, err := OpenContentCache(bad, 0); err == nil {
			t.Errorf("OpenContentCache(%s): no error; want one (not a directory)", bad)
		}
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(root, "ro")
		if err := os.Mkdir(ro, 0o500); err != nil {
			t.Fatal(err)
		}
		if _, err := OpenContentCache(filepath.Join(ro, "cache"), 0); err == nil {
			t.Error("OpenContentCache in a directory this user cannot write: no error")
		}
	}
}

// The entry StoreFileEntry makes of a trace that Create writes holds no
// content, only where its frames are in the trace file; Put reads them
// from there (while the Writer is open) into an entry equal to the one a
// trace in memory gives, and fails cleanly once the Writer is closed.
func TestContentCacheEntryFromTraceFile(t *testing.T) {
	files := sampleFiles()[:2] // the library (two frames for three chunks) and the conf file
	inMemory, err := OpenContentCache(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	fillCache(t, Options{}, inMemory, files)

	fromFile, err := OpenContentCache(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Create(filepath.Join(t.TempDir(), "t.envb"), sampleHeader())
	if err != nil {
		t.Fatal(err)
	}
	cw, err := w.NewContentWriter()
	if err != nil {
		t.Fatal(err)
	}
	var entries []*CacheEntry
	for i := range files {
		obj := files[i].obj
		e, err := cw.StoreFileEntry(&obj, bytes.NewReader(files[i].content), true)
		if err != nil || e == nil {
			t.Fatalf("%s: %v, %v", obj.Path, e, err)
		}
		if e.src == nil || e.frames != nil || len(e.refs) != len(e.Chunks) {
			t.Fatalf("%s: the entry holds %d frames and %d references for %d chunks; want references only", obj.Path, len(e.frames), len(e.refs), len(e.Chunks))
		}
		entries = append(entries, e)
	}
	cw.Close()
	for i, e := range entries {
		key := cacheKeyOf(i, files[i].content)
		if err := fromFile.Put(key, e); err != nil {
			t.Fatal(err)
		}
		want, _ := os.ReadFile(inMemory.path(key))
		got, err := os.ReadFile(fromFile.path(key))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: the entry put from the trace file differs from the one put from memory (%v)", files[i].obj.Path, err)
		}
		if e, err := fromFile.Get(key); e == nil || err != nil {
			t.Errorf("%s: Get of the entry put from the trace file: %v, %v", files[i].obj.Path, e, err)
		}
	}
	if err := w.Close(sampleEnd()); err != nil {
		t.Fatal(err)
	}
	late, err := OpenContentCache(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := late.Put(cacheKeyOf(0, files[0].content), entries[0]); err == nil || !errors.Is(err, os.ErrClosed) {
		t.Errorf("Put after the Writer closed: %v; want an error saying the file is closed", err)
	}
	if ents, _ := os.ReadDir(late.Dir()); len(ents) != 0 {
		t.Errorf("a failed Put left %d files in the cache", len(ents))
	}
}
