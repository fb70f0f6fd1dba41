package tracefile

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/klauspost/compress/zstd"

	"github.com/envbisect/envbisect/trace"
)

// ContentCache keeps, across recordings, the chunk frames that storing a
// file wrote, so that a later recording that meets the same version of
// the file copies them into its trace instead of reading, hashing and
// compressing the file again. One file per entry in a directory of its
// own (mode 0700, entries 0600: they hold file contents), named by the
// SHA-256 of the entry's CacheKey; an entry is written to a temporary
// file and renamed into place, so concurrent recordings share a cache.
//
// Reading and writing are apart, so that a recorder can leave the cache
// as it is while the command runs (the cache may be in a tree the
// command reads, such as its HOME) and bring it up to date after: Get
// only reads (it creates, removes and touches nothing; a directory that
// does not exist holds nothing), and the changes are Put, MarkUsed, Drop
// and Trim (contentcache_write.go). Get refuses an entry whose checksum,
// key or chunk addresses do not match; Trim removes the least recently
// used entries until the cache is within its bound.
type ContentCache struct {
	dir string
	max int64

	mu    sync.Mutex
	zpeek *zstd.Decoder // reads a compressed chunk's address; created on first use
}

// CacheKey names one version of a file: the entry of a file whose device,
// inode, size, mtime or ctime changed is another entry. A write to a file
// changes its ctime, which no user can set, so a changed file misses.
type CacheKey struct {
	Dev, Ino           uint64
	Size, Mtime, Ctime int64 // bytes; nanoseconds since the epoch
}

// DefaultContentCacheSize bounds a content cache when the caller gives no
// bound: about five recordings of mpd's 290 libraries, compressed.
const DefaultContentCacheSize = 1 << 30

// cacheMagic starts every entry; its last byte is the entry format's
// version.
var cacheMagic = [8]byte{'E', 'B', 'C', 'C', 'A', 'C', 'H', 1}

// cacheHeaderSize is the fixed part of an entry: magic, key (5 × 8),
// size, SHA-256, chunk count.
const cacheHeaderSize = 8 + 40 + 8 + hashSize + 4

// OpenContentCache opens the content cache in dir, bounded to max bytes
// (0: DefaultContentCacheSize). It creates nothing: the first Put makes
// the directory (mode 0700). It fails when dir is not a directory, or
// does not exist and cannot be made (CheckContentCacheDir).
func OpenContentCache(dir string, max int64) (*ContentCache, error) {
	if max <= 0 {
		max = DefaultContentCacheSize
	}
	if err := CheckContentCacheDir(dir); err != nil {
		return nil, err
	}
	return &ContentCache{dir: dir, max: max}, nil
}

// CheckContentCacheDir reports, without creating or changing anything,
// whether dir can hold a content cache: it is a directory, or it does
// not exist and its nearest existing ancestor is a directory this
// process may create entries in (not on a read-only file system).
func CheckContentCacheDir(dir string) error {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		switch {
		case err == nil && !fi.IsDir():
			return fmt.Errorf("content cache %s: %s is not a directory", dir, d)
		case err == nil && d == filepath.Clean(dir):
			return nil
		case err == nil:
			if err := syscall.Access(d, 0o3); err != nil { // W_OK|X_OK
				return fmt.Errorf("content cache %s: cannot make it in %s: %w", dir, d, err)
			}
			return nil
		case !errors.Is(err, os.ErrNotExist) || filepath.Dir(d) == d:
			return fmt.Errorf("content cache: %w", err)
		}
	}
}

// Dir returns the cache's directory.
func (c *ContentCache) Dir() string { return c.dir }

func (c *ContentCache) path(key CacheKey) string {
	var b [40]byte
	putCacheKey(b[:], key)
	sum := sha256.Sum256(b[:])
	return filepath.Join(c.dir, hex.EncodeToString(sum[:]))
}

func putCacheKey(b []byte, k CacheKey) {
	binary.LittleEndian.PutUint64(b[0:], k.Dev)
	binary.LittleEndian.PutUint64(b[8:], k.Ino)
	binary.LittleEndian.PutUint64(b[16:], uint64(k.Size))
	binary.LittleEndian.PutUint64(b[24:], uint64(k.Mtime))
	binary.LittleEndian.PutUint64(b[32:], uint64(k.Ctime))
}

// ErrCacheEntryRefused wraps the reason Get refused an entry.
var ErrCacheEntryRefused = errors.New("content cache entry refused")

// Get returns the entry of key, or nil when the cache has none. An entry
// that does not verify (a checksum, its key, a frame or a chunk address
// that does not match) is refused: Get returns nil and an error wrapping
// ErrCacheEntryRefused, and the caller stores the file as on a miss (and
// may Drop the entry). Get changes nothing in the cache: the caller
// marks a hit as used with MarkUsed.
func (c *ContentCache) Get(key CacheKey) (*CacheEntry, error) {
	p := c.path(key)
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("content cache %s: %w", p, err)
	}
	e, err := c.parse(data, key)
	if err != nil {
		return nil, fmt.Errorf("content cache %s: %w: %w", p, ErrCacheEntryRefused, err)
	}
	return e, nil
}

// parse checks an entry's bytes and returns the entry they hold.
func (c *ContentCache) parse(data []byte, key CacheKey) (*CacheEntry, error) {
	if len(data) < cacheHeaderSize+4 {
		return nil, fmt.Errorf("%d bytes, shorter than an entry", len(data))
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return nil, errors.New("checksum mismatch")
	}
	if !bytes.Equal(body[:8], cacheMagic[:]) {
		return nil, errors.New("not an entry of this version")
	}
	var want [40]byte
	putCacheKey(want[:], key)
	if !bytes.Equal(body[8:48], want[:]) {
		return nil, errors.New("it is another file's entry")
	}
	e := &CacheEntry{Size: int64(binary.LittleEndian.Uint64(body[48:56]))}
	copy(e.SHA256[:], body[56:56+hashSize])
	n := int64(binary.LittleEndian.Uint32(body[56+hashSize:]))
	if e.Size != key.Size || n > e.Size || e.Size > n*MaxChunkSize {
		return nil, fmt.Errorf("%d chunks for %d bytes of a %d-byte file", n, e.Size, key.Size)
	}
	rest := body[cacheHeaderSize:]
	var total int64
	for i := int64(0); i < n; i++ {
		if len(rest) < hashSize+4+frameHeaderSize {
			return nil, fmt.Errorf("chunk %d: truncated", i)
		}
		var h trace.Hash
		copy(h[:], rest)
		raw := binary.LittleEndian.Uint32(rest[hashSize:])
		fr := rest[hashSize+4:]
		length := int(binary.LittleEndian.Uint32(fr[4:8]))
		if frameType(fr[0]) != frameChunk || fr[1]&^flagsKnown != 0 || length > MaxStoredPayload || len(fr) < frameHeaderSize+length {
			return nil, fmt.Errorf("chunk %d: not a chunk frame", i)
		}
		// The frame's own checksum is the entry's too: the entry's covers
		// it, and the trace's reader checks it again.
		frame := fr[:frameHeaderSize+length]
		if raw == 0 || raw > MaxChunkSize {
			return nil, fmt.Errorf("chunk %d: %d bytes", i, raw)
		}
		addr, err := c.address(frame)
		if err != nil || addr != h {
			return nil, fmt.Errorf("chunk %d: its frame holds another address", i)
		}
		total += int64(raw)
		e.Chunks, e.raw, e.frames = append(e.Chunks, h), append(e.raw, raw), append(e.frames, frame)
		rest = fr[len(frame):]
	}
	if len(rest) != 0 || (n > 0 && total != e.Size) {
		return nil, fmt.Errorf("chunks of %d bytes for a %d-byte file, %d bytes left over", total, e.Size, len(rest))
	}
	return e, nil
}

// address returns the address a chunk frame starts with (readchunk.go).
func (c *ContentCache) address(frame []byte) (trace.Hash, error) {
	var h trace.Hash
	payload := frame[frameHeaderSize:]
	if frame[1]&flagZstd == 0 {
		if len(payload) < hashSize {
			return h, errors.New("short")
		}
		copy(h[:], payload)
		return h, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.zpeek == nil {
		var err error
		if c.zpeek, err = newZstdDecoder(hashSize + MaxChunkSize); err != nil {
			return h, err
		}
	}
	if err := c.zpeek.Reset(bytes.NewReader(payload)); err != nil {
		return h, err
	}
	_, err := io.ReadFull(c.zpeek, h[:])
	return h, err
}
