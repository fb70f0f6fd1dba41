package tracefile

import (
	"bytes"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"

	"time"

	"github.com/envbisect/envbisect/trace"
)

// cacheKeyOf is a key for sample file i of content.
func cacheKeyOf(i int, content []byte) CacheKey {
	return CacheKey{Dev: 2049, Ino: uint64(100 + i), Size: int64(len(content)), Mtime: 1700000000123456789, Ctime: 1700000000987654321}
}

// fillCache writes a trace storing files with StoreFileEntry and puts
// each entry it returns in c; it returns how many it put.
func fillCache(t testing.TB, opts Options, c *ContentCache, files []contentFile) int {
	t.Helper()
	var buf bytes.Buffer
	w, err := opts.NewWriter(&buf, sampleHeader())
	if err != nil {
		t.Fatal(err)
	}
	cw, err := w.NewContentWriter()
	if err != nil {
		t.Fatal(err)
	}
	defer cw.Close()
	put := 0
	for i := range files {
		f := &files[i]
		obj := f.obj
		e, err := cw.StoreFileEntry(&obj, bytes.NewReader(f.content), f.keep)
		if err != nil {
			t.Fatal(err)
		}
		if (e != nil) != f.keep {
			t.Fatalf("%s: StoreFileEntry gave entry %v with keep %v", obj.Path, e != nil, f.keep)
		}
		if e != nil {
			if err := c.Put(cacheKeyOf(i, f.content), e); err != nil {
				t.Fatal(err)
			}
			put++
		}
	}
	if err := w.Close(sampleEnd()); err != nil {
		t.Fatal(err)
	}
	return put
}

// A trace whose files come from the cache reads back exactly like one
// that stored them from their bytes: identity, hash, chunks, content;
// and files kept by hash only (excluded, over budget) get their hash
// from the cache too, without their content.
func TestContentCacheRoundTrip(t *testing.T) {
	for _, opts := range []Options{{}, {Compression: Uncompressed}} {
		c, err := OpenContentCache(t.TempDir(), 0)
		if err != nil {
			t.Fatal(err)
		}
		files := sampleFiles()
		fillCache(t, opts, c, files)
		// The excluded and over-budget files of sampleFiles were not put;
		// a later recording may keep by hash only a file an earlier one
		// stored: the conf file, here.
		files[1].keep, files[1].obj.Why = false, "excluded"
		var buf bytes.Buffer
		w, err := opts.NewWriter(&buf, sampleHeader())
		if err != nil {
			t.Fatal(err)
		}
		cw, err := w.NewContentWriter()
		if err != nil {
			t.Fatal(err)
		}
		for i := range files {
			f := &files[i]
			e, err := c.Get(cacheKeyOf(i, f.content))
			if err != nil {
				t.Fatal(err)
			}
			if e == nil {
				if i < 3 {
					t.Fatalf("%s: the cache misses", f.obj.Path)
				}
				if err := cw.StoreFile(&f.obj, bytes.NewReader(f.content), f.keep); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := cw.StoreEntry(&f.obj, e, f.keep); err != nil {
				t.Fatal(err)
			}
		}
		cw.Close()
		if err := w.WriteStart(sampleStart()); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(sampleEnd()); err != nil {
			t.Fatal(err)
		}
		if st := w.Stats(); st.ChunksDeduplicated != 1 || st.Chunks != 2 {
			t.Errorf("chunks written %d, deduplicated %d; want 2 (the library's) and 1 (its second equal chunk)", st.Chunks, st.ChunksDeduplicated)
		}
		path := filepath.Join(t.TempDir(), "cached.envb")
		if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		tr, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.VerifyContent(); err != nil {
			t.Error(err)
		}
		requireEqual(t, "file objects", tr.Files, wantObjects(files))
		checkContents(t, files, tr.File, tr.OpenContent)
	}
}

// A changed file misses: an entry is found only by its whole key.
func TestContentCacheChangedFileMisses(t *testing.T) {
	c, err := OpenContentCache(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	files := sampleFiles()[1:2]
	fillCache(t, Options{}, c, files)
	key := cacheKeyOf(0, files[0].content)
	if e, err := c.Get(key); e == nil || err != nil {
		t.Fatalf("Get of the stored key: %v, %v", e, err)
	}
	for name, k := range map[string]CacheKey{
		"dev": {key.Dev + 1, key.Ino, key.Size, key.Mtime, key.Ctime}, "ino": {key.Dev, key.Ino + 1, key.Size, key.Mtime, key.Ctime},
		"size": {key.Dev, key.Ino, key.Size + 1, key.Mtime, key.Ctime}, "mtime": {key.Dev, key.Ino, key.Size, key.Mtime + 1, key.Ctime},
		"ctime": {key.Dev, key.Ino, key.Size, key.Mtime, key.Ctime + 1},
	} {
		if e, err := c.Get(k); e != nil || err != nil {
			t.Errorf("another %s: Get = %v, %v; want a miss", name, e, err)
		}
	}
	// An entry renamed to another key's name is that file's no more.
	other := key
	other.Ctime++
	if err := os.Rename(c.path(key), c.path(other)); err != nil {
		t.Fatal(err)
	}
	if e, err := c.Get(other); e != nil || !errors.Is(err, ErrCacheEntryRefused) {
		t.Errorf("an entry under another key's name: Get = %v, %v; want it refused", e, err)
	}
}

// A corrupt entry is refused, wherever the damage is: the caller then
// stores the file from its bytes. Get leaves it where it is (it changes
// nothing in the cache); Drop removes it.
func TestContentCacheRefusesCorruptEntry(t *testing.T) {
	dir := t.TempDir()
	c, err := OpenContentCache(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	files := sampleFiles()[:1] // the library: three chunks, two frames
	fillCache(t, Options{}, c, files)
	key := cacheKeyOf(0, files[0].content)
	good, err := os.ReadFile(c.path(key))
	if err != nil {
		t.Fatal(err)
	}
	for _, off := range []int{0, 9, 50, 60, cacheHeaderSize + 3, cacheHeaderSize + hashSize + 4 + 20, len(good) / 2, len(good) - 5, len(good) - 1} {
		bad := bytes.Clone(good)
		bad[off] ^= 0x40
		if err := os.WriteFile(c.path(key), bad, 0o600); err != nil {
			t.Fatal(err)
		}
		e, err := c.Get(key)
		if e != nil || !errors.Is(err, ErrCacheEntryRefused) {
			t.Errorf("byte %d of %d flipped: Get = %v, %v; want it refused", off, len(good), e, err)
		}
		if b, err := os.ReadFile(c.path(key)); err != nil || !bytes.Equal(b, bad) {
			t.Errorf("byte %d flipped: Get changed the entry (%v)", off, err)
		}
		if err := c.Drop(key); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(c.path(key)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("byte %d flipped: the entry is still there after Drop (%v)", off, err)
		}
	}
	// Truncated.
	if err := os.WriteFile(c.path(key), good[:len(good)-100], 0o600); err != nil {
		t.Fatal(err)
	}
	if e, err := c.Get(key); e != nil || !errors.Is(err, ErrCacheEntryRefused) {
		t.Errorf("truncated: Get = %v, %v; want it refused", e, err)
	}
	// A chunk whose frame holds another address, all checksums redone.
	bad := bytes.Clone(good)
	bad[cacheHeaderSize] ^= 1 // the first chunk's address in the entry
	bad = bad[:len(bad)-4]
	bad = append(bad, 0, 0, 0, 0)
	putCRC(bad)
	if err := os.WriteFile(c.path(key), bad, 0o600); err != nil {
		t.Fatal(err)
	}
	if e, err := c.Get(key); e != nil || !errors.Is(err, ErrCacheEntryRefused) {
		t.Errorf("another address: Get = %v, %v; want it refused", e, err)
	}
	// The good entry still verifies.
	if err := os.WriteFile(c.path(key), good, 0o600); err != nil {
		t.Fatal(err)
	}
	if e, err := c.Get(key); e == nil || err != nil {
		t.Errorf("the good entry: Get = %v, %v", e, err)
	}
}

// putCRC rewrites an entry's trailing checksum.
func putCRC(b []byte) {
	body := b[:len(b)-4]
	sum := crc32Castagnoli(body)
	b[len(b)-4], b[len(b)-3], b[len(b)-2], b[len(b)-1] = byte(sum), byte(sum>>8), byte(sum>>16), byte(sum>>24)
}

// The cache stays within its bound: Trim removes the least recently used
// entries (a hit the caller marks with MarkUsed counts as a use), and Put
// writes no entry larger than the bound.
func TestContentCacheSizeBound(t *testing.T) {
	dir := t.TempDir()
	big, err := OpenContentCache(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	var files []contentFile
	for i := range 5 {
		f := sampleFiles()[1]
		f.content = randomBytes(uint64(20+i), 100_000)
		f.obj.ID = uint32(10 + i)
		files = append(files, f)
	}
	fillCache(t, Options{Compression: Uncompressed}, big, files)
	entry, err := os.Stat(big.path(cacheKeyOf(0, files[0].content)))
	if err != nil {
		t.Fatal(err)
	}
	// Entries 0..4 used in that order, then 1 again.
	base := time.Now().Add(-time.Hour)
	for i := range files {
		at := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(big.path(cacheKeyOf(i, files[i].content)), at, at); err != nil {
			t.Fatal(err)
		}
	}
	if e, err := big.Get(cacheKeyOf(1, files[1].content)); e == nil || err != nil {
		t.Fatalf("Get: %v, %v", e, err)
	}
	if err := big.MarkUsed(cacheKeyOf(1, files[1].content)); err != nil {
		t.Fatal(err)
	}
	small, err := OpenContentCache(dir, 3*entry.Size()+entry.Size()/2)
	if err != nil {
		t.Fatal(err)
	}
	total, err := small.Trim()
	if err != nil {
		t.Fatal(err)
	}
	if total > 3*entry.Size()+entry.Size()/2 {
		t.Errorf("after Trim the cache holds %d bytes, over its bound %d", total, 3*entry.Size()+entry.Size()/2)
	}
	for i, want := range []bool{false, true, false, true, true} {
		_, err := os.Stat(small.path(cacheKeyOf(i, files[i].content)))
		if got := err == nil; got != want {
			t.Errorf("entry %d kept %v, want %v (least recently used go first; 1 was used last)", i, got, want)
		}
	}
	// An entry over the bound is not written.
	tiny, err := OpenContentCache(t.TempDir(), entry.Size()/2)
	if err != nil {
		t.Fatal(err)
	}
	fillCache(t, Options{Compression: Uncompressed}, tiny, files[:1])
	if ents, _ := os.ReadDir(tiny.Dir()); len(ents) != 0 {
		t.Errorf("a cache of %d bytes holds %d entries of %d bytes", entry.Size()/2, len(ents), entry.Size())
	}
}

func crc32Castagnoli(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// FuzzContentCacheEntry: Get never panics on an entry's bytes, and what
// it accepts is an entry of the key it was asked for, whose chunks are
// frames of the addresses it names.
func FuzzContentCacheEntry(f *testing.F) {
	dir := f.TempDir()
	c, err := OpenContentCache(dir, 0)
	if err != nil {
		f.Fatal(err)
	}
	files := sampleFiles()[:3]
	fillCache(f, Options{}, c, files)
	for i := range files {
		if b, err := os.ReadFile(c.path(cacheKeyOf(i, files[i].content))); err == nil {
			f.Add(b, int64(len(files[i].content)))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, size int64) {
		c, err := OpenContentCache(t.TempDir(), 0)
		if err != nil {
			t.Fatal(err)
		}
		key := cacheKeyOf(0, nil)
		key.Size = size
		if err := os.WriteFile(c.path(key), data, 0o600); err != nil {
			t.Fatal(err)
		}
		e, err := c.Get(key)
		if e == nil {
			return
		}
		if err != nil || e.Size != size || len(e.frames) != len(e.Chunks) {
			t.Fatalf("accepted an entry of %d bytes for size %d with %d chunks, %d frames (%v)", e.Size, size, len(e.Chunks), len(e.frames), err)
		}
		for i, fr := range e.frames {
			if h, err := c.address(fr); err != nil || h != e.Chunks[i] {
				t.Fatalf("chunk %d: frame of another address", i)
			}
		}
	})
}

// Two files of the same content stored at once by two ContentWriters:
// the one that finds the chunk being written by the other waits for it
// before writing its file frame, which may name only chunks before it
// (found by recording git, whose binary exists as several files).
func TestConcurrentEqualFilesWaitForTheChunk(t *testing.T) {
	content := randomBytes(42, 300_000)
	// The chunk frame, as a ContentWriter makes it.
	src, err := OpenContentCache(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	one := []contentFile{{obj: sampleFiles()[1].obj, content: content, keep: true}}
	fillCache(t, Options{}, src, one)
	e, err := src.Get(cacheKeyOf(0, content))
	if err != nil || e == nil || len(e.Chunks) != 1 {
		t.Fatalf("Get: %v, %v", e, err)
	}

	var buf bytes.Buffer
	w, err := NewWriter(&buf, sampleHeader())
	if err != nil {
		t.Fatal(err)
	}
	a, _ := w.NewContentWriter()
	b, _ := w.NewContentWriter()
	defer a.Close()
	defer b.Close()
	h := e.Chunks[0]
	if !a.reserve(h) { // a starts writing the chunk
		t.Fatal("the chunk is in the trace already")
	}
	done := make(chan error, 1)
	go func() {
		obj := trace.FileObject{ID: 2, Path: "/usr/bin/copy"}
		done <- b.StoreFile(&obj, bytes.NewReader(content), true)
	}()
	select {
	case err := <-done:
		t.Fatalf("the second file was written before its chunk (%v)", err)
	case <-time.After(50 * time.Millisecond):
	}
	// a finishes its chunk (as writeChunk does after reserving) and its
	// file.
	if _, err := a.write(e.frames[0], Stats{Chunks: 1}); err != nil {
		t.Fatal(err)
	}
	a.written(h)
	if err := <-done; err != nil {
		t.Fatalf("the second file: %v", err)
	}
	obj := trace.FileObject{ID: 1, Path: "/usr/bin/orig", Size: int64(len(content)), SHA256: e.SHA256, Chunks: []trace.Hash{h}}
	if err := a.WriteFile(&obj, Stats{}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(sampleEnd()); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.envb")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.VerifyContent(); err != nil {
		t.Fatal(err)
	}
	if len(tr.Files) != 2 {
		t.Fatalf("%d file objects, want 2", len(tr.Files))
	}
}
