package record

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"

	"github.com/envbisect/envbisect/pkgdb"
	"github.com/envbisect/envbisect/trace"
)

// ownerCacheFile is the owner cache's file in the content cache's
// directory (whose Trim keeps to its own entries' names).
const ownerCacheFile = "owners.json"

// ownerCacheVersion is the layout of ownerCacheFile; another is ignored.
const ownerCacheVersion = 1

// ownerCache keeps the owners that recordings looked up in a package
// database (pkgdb), for as long as that database is unchanged
// (pkgdb.Stamp): a repeated recording then names the owners of the files
// it keeps without building the database's index, which took longer than
// a short command (gcc, git status) to run. It is loaded when the
// recording starts and written, like the content cache, after the
// command has exited.
type ownerCache struct {
	file string
	root string // of the database
	// loaded is closed when stamp and known hold what the file says
	// (loadOwnerCache reads it while the command starts); every method
	// waits for it.
	loaded chan struct{}
	stamp  string

	mu    sync.Mutex
	known map[string]trace.Package // by ownerKey
	// seen are the keys this recording asked for: what is kept when
	// known grows past maxOwners (a command's temporary files have new
	// names each time).
	seen  map[string]bool
	added int
}

// maxOwners bounds the owners kept: about 100 bytes each on disk.
const maxOwners = 1 << 15

// unownedKey keeps the database's answer for a file no package owns
// (its Manager and no Name), which Unowned paths get without a lookup.
const unownedKey = "\x00"

// ownerFile is ownerCacheFile's content.
type ownerFile struct {
	Version int                      `json:"version"`
	Stamp   string                   `json:"stamp"`
	Owners  map[string]trace.Package `json:"owners"`
}

// loadOwnerCache reads the owners kept in dir for the package database
// of root as it is now; a missing, unreadable or other database's file
// gives an empty cache. It reads them on a goroutine of its own, so that
// the command starts meanwhile: the database's stamp stats every .list
// file (6–13 ms for 855 packages on a loaded VM), which a short command
// (git status, a compile) would otherwise wait for before its first call.
// then, when set, runs on that goroutine after the load (newContentStore
// builds the database's index there when the cache holds no owner).
func loadOwnerCache(dir, root string, then func(o *ownerCache)) *ownerCache {
	o := &ownerCache{file: filepath.Join(dir, ownerCacheFile), root: root, loaded: make(chan struct{}), known: map[string]trace.Package{}, seen: map[string]bool{}}
	go func() {
		o.load()
		close(o.loaded)
		if then != nil {
			then(o)
		}
	}()
	return o
}

// load sets o's stamp and the owners its file keeps for that stamp.
func (o *ownerCache) load() {
	o.stamp = pkgdb.Stamp(o.root)
	b, err := os.ReadFile(o.file)
	if err != nil {
		return
	}
	var f ownerFile
	if json.Unmarshal(b, &f) != nil || f.Version != ownerCacheVersion || f.Stamp != o.stamp {
		return
	}
	if f.Owners != nil {
		o.known = f.Owners
	}
}

func ownerKey(path, resolved string) string { return path + "\x00" + resolved }

// warm reports whether the cache holds any owner.
func (o *ownerCache) warm() bool {
	<-o.loaded
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.known) > 0
}

// get returns the owner kept for a file opened as path (resolved: the
// file it led to).
func (o *ownerCache) get(path, resolved string) (trace.Package, bool) {
	<-o.loaded
	o.mu.Lock()
	defer o.mu.Unlock()
	k := ownerKey(path, resolved)
	if pkgdb.Unowned(path) && (resolved == "" || pkgdb.Unowned(resolved)) {
		k = unownedKey
	}
	pk, ok := o.known[k]
	if ok {
		o.seen[k] = true
	}
	return pk, ok
}

// put keeps an owner the database gave.
func (o *ownerCache) put(path, resolved string, pk trace.Package) {
	<-o.loaded
	o.mu.Lock()
	defer o.mu.Unlock()
	k := ownerKey(path, resolved)
	if pk.Name == "" {
		if _, ok := o.known[unownedKey]; !ok {
			o.known[unownedKey] = pk
			o.seen[unownedKey] = true
			o.added++
		}
	}
	o.seen[k] = true
	if _, ok := o.known[k]; !ok {
		o.known[k] = pk
		o.added++
	}
}

// save writes the cache if the recording added owners, unless the
// database changed meanwhile (then what it holds may be of neither
// state). A temporary file renamed into place keeps concurrent
// recordings' writes whole (the last one wins); errors only make later
// recordings slower, and are dropped.
func (o *ownerCache) save() {
	if o == nil {
		return
	}
	<-o.loaded
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.added == 0 || pkgdb.Stamp(o.root) != o.stamp {
		return
	}
	if len(o.known) > maxOwners {
		for k := range o.known {
			if !o.seen[k] {
				delete(o.known, k)
			}
		}
	}
	b, err := json.Marshal(ownerFile{Version: ownerCacheVersion, Stamp: o.stamp, Owners: o.known})
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(o.file), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(o.file), ".new-owners-")
	if err != nil {
		return
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil || os.Rename(tmp.Name(), o.file) != nil {
		os.Remove(tmp.Name())
		return
	}
	o.added = 0
}
