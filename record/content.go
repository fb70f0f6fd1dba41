package record

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/pkgdb"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// DefaultMaxContent is --max-content's default: the raw bytes of file
// content a trace keeps, enough for a typical dynamically linked program
// and its libraries (mpd's 290 libraries are 217 MB).
const DefaultMaxContent = 512 << 20

// contentQueue bounds the files waiting for the content goroutines; the
// tracer waits beyond it.
const contentQueue = 4096

// contentWorkers read, hash and compress files at once: while the
// command runs they share the CPUs the tracer does not use, and when a
// short command ends with files still queued (gcc's cc1 and ld, 48 MiB
// for a 0.2 s compile) they finish them on every CPU.
const contentWorkers = 2

// contentStore is the ptrace.FileSink of a recording: it takes each
// distinct file the tracer opened, decides what of it is kept (a path
// matching --exclude-content keeps its hash only, excluded, and so does a
// file that would take the content past --max-content, over-budget, in
// the order the command opened them), and on goroutines of its own reads,
// hashes and stores it (a tracefile.ContentWriter each).
type contentStore struct {
	exclude launch.ContentFilter
	max     uint64 // raw content bytes to keep; 0: none
	used    uint64 // raw bytes kept so far; the tracer thread's
	over    []trace.FileObject

	queue chan keptFile
	wg    sync.WaitGroup

	// cache, when set, holds what earlier recordings stored of a file
	// version; a hit costs no reading, hashing or compressing. It is
	// only read while the command runs: what the recording learnt for
	// it waits in update (cacheupdate.go).
	cache  *tracefile.ContentCache
	update *cacheUpdate
	hits   atomic.Int64
	// refused counts cache entries that did not verify (update drops
	// them).
	refused atomic.Int64

	// owners, when set, is the package database of the root the command
	// sees: every file object names the package that owns it
	// (FileObject.Package), so that a search can group files by package.
	owners *pkgdb.DB
	// ownerCache, when set, holds the owners earlier recordings looked
	// up in the same database: a file it knows costs no index.
	ownerCache *ownerCache

	mu       sync.Mutex
	err      error // the first write error; later files are dropped
	ownerErr error // the first error of the package database

	// guard, with --exclude-content, knows the excluded files' chunks:
	// a file that carries one keeps its hash only, as excluded.
	guard *contentGuard
}

type keptFile struct {
	f    *os.File
	obj  *trace.FileObject
	keep bool
}

// newContentStore starts the content goroutines of a recording that
// writes to w. ownersDir, when set, is the content cache's directory, where the
// owners looked up in the database of root are kept (ownerCache): also
// when the recording keeps no content (--max-content 0), which reads
// nothing from the content cache.
func newContentStore(w *tracefile.Writer, exclude []string, max uint64, cache *tracefile.ContentCache, owners *pkgdb.DB, root, ownersDir string) (*contentStore, error) {
	filter, err := launch.NewContentFilter(exclude)
	if err != nil {
		return nil, err
	}
	c := &contentStore{exclude: filter, max: max, queue: make(chan keptFile, contentQueue), cache: cache, owners: owners}
	if cache != nil || ownersDir != "" && owners != nil {
		c.update = &cacheUpdate{cache: cache}
	}
	// Index the package database while the command starts: the tracer
	// thread waits for it at the first file the command only stat'ed
	// (KeepsStated), which an interpreter does early. Its error, if any,
	// is the first lookup's again. With owners cached from an earlier
	// recording, the index is built only at a file they do not name, if
	// any.
	index := func() { owners.Owner("/", "") }
	if ownersDir != "" && owners != nil {
		c.ownerCache = loadOwnerCache(ownersDir, root, func(o *ownerCache) {
			if !o.warm() {
				index()
			}
		})
		c.update.owners = c.ownerCache
	} else if owners != nil {
		go index()
	}
	for range contentWorkers {
		cw, err := w.NewContentWriter()
		if err != nil {
			close(c.queue)
			c.wg.Wait()
			return nil, err
		}
		c.wg.Add(1)
		go c.run(cw)
	}
	return c, nil
}

// Keep implements ptrace.FileSink: it decides what of the file is kept
// and queues it for the content goroutines, returning at once unless
// contentQueue files are waiting.
func (c *contentStore) Keep(f *os.File, obj *trace.FileObject) {
	keep := true
	switch {
	case f == nil:
		// StoreFile marks it unreadable.
	case c.exclude.Excludes(obj.Path) || (obj.Resolved != "" && c.exclude.Excludes(obj.Resolved)):
		obj.Why, keep = trace.ContentExcluded, false
	case c.used+uint64(obj.Size) > c.max:
		obj.Why, keep = trace.ContentOverBudget, false
		c.over = append(c.over, *obj)
	default:
		c.used += uint64(obj.Size)
	}
	c.queue <- keptFile{f, obj, keep}
}

func (c *contentStore) run(cw *tracefile.ContentWriter) {
	defer c.wg.Done()
	defer cw.Close()
	for k := range c.queue {
		c.mu.Lock()
		failed := c.err != nil
		c.mu.Unlock()
		if failed {
			if k.f != nil {
				k.f.Close()
			}
			continue
		}
		err := c.store(cw, k)
		if k.f != nil {
			k.f.Close()
		}
		if err != nil {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
		}
	}
}

// store writes k as Keep decided: from the cache when it holds the
// file's version, else from the file (then noting what was stored for
// the cache, if the file did not change while it was read).
func (c *contentStore) store(cw *tracefile.ContentWriter, k keptFile) error {
	c.lookUpOwner(k.obj)
	if k.keep && k.f != nil && c.guard != nil && c.guard.fileCarries(k.f) != "" {
		k.obj.Why, k.keep = trace.ContentExcluded, false
	}
	if k.f == nil {
		if err := cw.StoreFile(k.obj, unreadable{}, k.keep); err != nil {
			return fmt.Errorf("store %s: %w", k.obj.Path, err)
		}
		return nil
	}
	key, ok := cacheKey(k.f)
	if c.cache == nil || !ok {
		if err := cw.StoreFile(k.obj, k.f, k.keep); err != nil {
			return fmt.Errorf("store %s: %w", k.obj.Path, err)
		}
		return nil
	}
	e, err := c.cache.Get(key)
	if err != nil {
		c.refused.Add(1) // stored from the file as on a miss
		c.update.refuse(key)
	}
	if e != nil {
		c.hits.Add(1)
		c.update.hit(key)
		if err := cw.StoreEntry(k.obj, e, k.keep); err != nil {
			return fmt.Errorf("store %s from the content cache: %w", k.obj.Path, err)
		}
		return nil
	}
	e, err = cw.StoreFileEntry(k.obj, k.f, k.keep)
	if err != nil {
		return fmt.Errorf("store %s: %w", k.obj.Path, err)
	}
	if after, ok := cacheKey(k.f); e != nil && ok && after == key {
		c.update.put(key, e)
	}
	return nil
}

// lookUpOwner names the package that owns obj in the database of the
// root the command sees; the first lookup builds the database's whole
// index (pkgdb.OpenWhole), on this goroutine.
func (c *contentStore) lookUpOwner(obj *trace.FileObject) {
	if c.owners == nil {
		return
	}
	if c.ownerCache != nil {
		if pk, ok := c.ownerCache.get(obj.Path, obj.Resolved); ok {
			obj.Package = &pk
			return
		}
	}
	pk, err := c.owners.Owner(obj.Path, obj.Resolved)
	if err != nil {
		c.mu.Lock()
		if c.ownerErr == nil {
			c.ownerErr = err
		}
		c.mu.Unlock()
		return
	}
	obj.Package = pk
	if c.ownerCache != nil && pk != nil {
		c.ownerCache.put(obj.Path, obj.Resolved, *pk)
	}
}

// cacheKey returns the content cache's key of the open file f; ok is
// false for a file the cache must not hold (cacheableFS).
func cacheKey(f *os.File) (key tracefile.CacheKey, ok bool) {
	var fs unix.Statfs_t
	if err := unix.Fstatfs(int(f.Fd()), &fs); err != nil || !cacheableFS(int64(fs.Type)) {
		return tracefile.CacheKey{}, false
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return tracefile.CacheKey{}, false
	}
	return tracefile.CacheKey{Dev: st.Dev, Ino: st.Ino, Size: st.Size, Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}, true
}

// close waits until every queued file is stored. It returns the files
// over the budget, largest first, and the first write error. The cache
// is not written yet: that is update's apply, once the run is over.
func (c *contentStore) close() ([]trace.FileObject, error) {
	close(c.queue)
	c.wg.Wait()
	slices.SortStableFunc(c.over, func(a, b trace.FileObject) int {
		switch {
		case a.Size > b.Size:
			return -1
		case a.Size < b.Size:
			return 1
		}
		return 0
	})
	return c.over, c.err
}

// unreadable is the content of a file the tracer could not open.
type unreadable struct{}

func (unreadable) Read([]byte) (int, error) {
	return 0, errors.New("the tracer could not open it")
}

// cacheableFS reports whether the content cache may hold the files of a
// file system of type magic (statfs): those that keep a ctime of their
// own, which every write changes, and read-only images. A FAT file
// system's "ctime" is its creation time, and network and FUSE file
// systems report what their server says; their files are stored from
// their bytes every time. (Before Linux 6.13's multigrain timestamps a
// ctime has the clock tick's granularity: a rewrite of the same size
// within one tick of a recording's read, its mtime put back, would go
// unseen.)
func cacheableFS(magic int64) bool {
	switch magic {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC,
		unix.OVERLAYFS_SUPER_MAGIC, unix.F2FS_SUPER_MAGIC, unix.SQUASHFS_MAGIC, unix.EROFS_SUPER_MAGIC_V1:
		return true
	}
	return false
}
