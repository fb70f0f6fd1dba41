package tracefile

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The changes to a content cache. A recorder makes them after the command
// has exited (record's cacheUpdate), never while it runs; each leaves the
// cache consistent when the process is killed at any point: an entry
// appears whole by rename or not at all, and a temporary file left
// behind goes at a later Trim.

// Put writes e as the entry of key, replacing any, making the cache's
// directory (mode 0700) if it does not exist. An entry without chunks for
// a file that is not empty, or one larger than the cache's bound, is not
// written. The frames of an entry StoreFileEntry made of a trace file are
// read from that file, one at a time: Put must come before the trace's
// Writer is closed.
func (c *ContentCache) Put(key CacheKey, e *CacheEntry) error {
	if e == nil || (len(e.Chunks) == 0 && e.Size > 0) || !e.complete() {
		return nil
	}
	head := make([]byte, cacheHeaderSize)
	copy(head, cacheMagic[:])
	putCacheKey(head[8:], key)
	binary.LittleEndian.PutUint64(head[48:], uint64(e.Size))
	copy(head[56:], e.SHA256[:])
	binary.LittleEndian.PutUint32(head[56+hashSize:], uint32(len(e.Chunks)))
	size := int64(len(head)) + 4
	for i := range e.Chunks {
		size += hashSize + 4 + int64(e.frameLen(i))
	}
	if size > c.max {
		return nil
	}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return fmt.Errorf("content cache: %w", err)
	}
	tmp, err := os.CreateTemp(c.dir, ".new-*")
	if err != nil {
		return fmt.Errorf("content cache: %w", err)
	}
	err = c.writeEntry(tmp, head, e)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.path(key))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("content cache: %w", err)
	}
	return nil
}

// writeEntry writes an entry as it is made, its checksum last, so that a
// file of 30 MiB is not copied once more into one buffer.
func (c *ContentCache) writeEntry(f *os.File, head []byte, e *CacheEntry) error {
	bw := bufio.NewWriterSize(f, 64<<10)
	var sum uint32
	write := func(p []byte) error {
		sum = crc32.Update(sum, castagnoli, p)
		_, err := bw.Write(p)
		return err
	}
	if err := write(head); err != nil {
		return err
	}
	var buf []byte
	for i, h := range e.Chunks {
		var ref [hashSize + 4]byte
		copy(ref[:], h[:])
		binary.LittleEndian.PutUint32(ref[hashSize:], e.raw[i])
		frame, err := e.frame(i, buf)
		if err != nil {
			return err
		}
		if err := write(ref[:]); err != nil {
			return err
		}
		if err := write(frame); err != nil {
			return err
		}
		buf = frame[:0]
	}
	if _, err := bw.Write(binary.LittleEndian.AppendUint32(nil, sum)); err != nil {
		return err
	}
	return bw.Flush()
}

// frameLen is the length of chunk i's frame.
func (e *CacheEntry) frameLen(i int) int {
	if e.src != nil {
		return e.refs[i].n
	}
	return len(e.frames[i])
}

// MarkUsed marks the entry of key as used now, for Trim (least recently
// used go first). An entry that is gone is no error.
func (c *ContentCache) MarkUsed(key CacheKey) error {
	now := time.Now()
	if err := os.Chtimes(c.path(key), now, now); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("content cache: %w", err)
	}
	return nil
}

// Drop removes the entry of key (one Get refused). An entry that is gone
// is no error.
func (c *ContentCache) Drop(key CacheKey) error {
	if err := os.Remove(c.path(key)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("content cache: %w", err)
	}
	return nil
}

// Trim removes entries, least recently used first, until the cache holds
// at most its bound, and temporary files an interrupted Put left more
// than an hour ago. It returns the bytes the cache holds then; a cache
// whose directory does not exist holds none.
func (c *ContentCache) Trim() (int64, error) {
	ents, err := os.ReadDir(c.dir)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("content cache: %w", err)
	}
	type entry struct {
		path string
		size int64
		used time.Time
	}
	var all []entry
	var total int64
	for _, de := range ents {
		fi, err := de.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		p := filepath.Join(c.dir, de.Name())
		if len(de.Name()) != 2*sha256.Size {
			if strings.HasPrefix(de.Name(), ".new-") && time.Since(fi.ModTime()) > time.Hour {
				os.Remove(p)
			}
			continue
		}
		all = append(all, entry{p, fi.Size(), fi.ModTime()})
		total += fi.Size()
	}
	slices.SortFunc(all, func(a, b entry) int { return a.used.Compare(b.used) })
	for _, e := range all {
		if total <= c.max {
			break
		}
		if err := os.Remove(e.path); err == nil || errors.Is(err, os.ErrNotExist) {
			total -= e.size
		}
	}
	return total, nil
}
