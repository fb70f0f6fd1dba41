package record

import (
	"os"
	"sync"
	"time"

	"github.com/envbisect/envbisect/tracefile"
)

// cacheUpdate is what a recording learnt for its content cache while the
// command ran: the entries it stored from files (misses), the entries it
// used (hits) and those it refused. Nothing of it reaches the cache while
// the command runs, since the cache may be in a tree the command reads
// (the default is under its HOME: a build that archives its home must not
// see .cache/ appear, nor tar say "file changed as we read it"); Run
// applies it after the command has exited and its check has run. An
// entry it holds names where its frames are in the trace (tracefile's
// CacheEntry), so holding the entries of a whole run costs no content in
// memory.
type cacheUpdate struct {
	cache *tracefile.ContentCache
	// owners, when set, is written too: the owners the recording
	// looked up (ownercache.go).
	owners *ownerCache

	mu      sync.Mutex
	puts    []cachePut
	used    []tracefile.CacheKey
	refused []tracefile.CacheKey
}

type cachePut struct {
	key tracefile.CacheKey
	e   *tracefile.CacheEntry
}

func (u *cacheUpdate) put(key tracefile.CacheKey, e *tracefile.CacheEntry) {
	u.mu.Lock()
	u.puts = append(u.puts, cachePut{key, e})
	u.mu.Unlock()
}

func (u *cacheUpdate) hit(key tracefile.CacheKey) {
	u.mu.Lock()
	u.used = append(u.used, key)
	u.mu.Unlock()
}

func (u *cacheUpdate) refuse(key tracefile.CacheKey) {
	u.mu.Lock()
	u.refused = append(u.refused, key)
	u.mu.Unlock()
}

// apply brings the cache up to date: the refused entries are dropped (a
// miss stored after one is put again below), the hits marked as used,
// the files stored on a miss put (their frames read back from the trace,
// whose Writer must still be open), and the cache trimmed to its bound
// when it grew: trimming lists and stats every entry, which a repeated
// recording that only used entries would pay after its command, for
// nothing (every recording that puts trims, so the cache is within its
// bound after each).
// A signal on stop (a second Ctrl-C) ends it between two entries. Every
// step leaves the cache consistent if envbisect is killed during it
// (tracefile.ContentCache.Put renames whole entries into place), and a
// cache that cannot be written only makes later recordings slower: its
// errors are dropped. It returns how long it took. Without a content
// cache it writes the owners only.
func (u *cacheUpdate) apply(stop <-chan os.Signal) time.Duration {
	if u == nil {
		return 0
	}
	if u.cache == nil {
		u.owners.save() // the owners only (--max-content 0)
		return 0
	}
	start := time.Now()
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, k := range u.refused {
		u.cache.Drop(k)
	}
	for _, k := range u.used {
		u.cache.MarkUsed(k)
	}
	for _, p := range u.puts {
		select {
		case <-stop:
			return time.Since(start)
		default:
		}
		u.cache.Put(p.key, p.e)
	}
	if u.owners != nil {
		u.owners.save()
	}
	if len(u.puts) > 0 {
		u.cache.Trim()
	}
	u.puts, u.used, u.refused = nil, nil, nil
	return time.Since(start)
}
