package record

import (
	"fmt"
	"io"
	"os"
	"sync"
)

// Excluded content in other buffers. The calls on an excluded path keep
// no content (launch.ContentFilter), but a program passes what it read
// on: cat writes it to stdout, a pipe carries it to wc, dd copies it a
// byte at a time, a program maps the file and writes the mapping. The
// contentGuard learns each excluded file's bytes when a call first opens
// it (reading it itself, through /proc/PID/root) and keeps:
//
//   - the hashes of its chunks: the blocks of chunkSize bytes aligned to
//     the file's start, the last chunkSize bytes, and the whole file when
//     it is smaller than that. A captured buffer is scanned with a
//     rolling hash over every window of those sizes; one that holds a
//     chunk is dropped. Any buffer carrying 2*chunkSize-1 contiguous
//     bytes of the file, or the whole of a small file, from any offset,
//     holds one.
//   - which processes read or mapped excluded content since their last
//     exec (tainted): a buffer such a process passes to the kernel that
//     is too short to hold a chunk is dropped as well (dd bs=1).
//
// Limits: content transformed on the way (compressed, encoded, split
// into pieces shorter than a chunk by another process, or copied by a
// process that was not tainted in pieces that short) is not recognised;
// a buffer is judged alone, never with its neighbours; a file that
// changes after its first open is known by its first bytes; only the
// first maxGuarded bytes of a file are hashed.
const (
	chunkSize  = 64
	maxGuarded = 256 << 20
	// hashBase is the rolling hash's multiplier (mod 2^64), odd.
	hashBase = 0x100000001b3
)

type contentGuard struct {
	// mu guards chunks: the content store's goroutines scan files with
	// them (fileCarries) while the tracer thread learns.
	mu sync.RWMutex
	// chunks maps a window size to the hashes of the chunks of that
	// size, each to the file it came from.
	chunks map[int]map[uint64]string
	// seen has the bit h>>(64-seenBits) set for every chunk hash h: the
	// scan looks a window up in chunks only when its bit is set, which
	// for a buffer carrying nothing is one load per byte.
	seen    []uint64
	learned map[string]bool   // the paths whose content is known
	tainted map[uint32]string // logical process -> excluded path it read or mapped
}

func newContentGuard() *contentGuard {
	return &contentGuard{chunks: map[int]map[uint64]string{}, seen: make([]uint64, 1<<seenBits/64),
		learned: map[string]bool{}, tainted: map[uint32]string{}}
}

// learn reads the excluded file path as process pid sees it, once, and
// keeps its chunks' hashes.
func (g *contentGuard) learn(pid int32, path string) error {
	if g.learned[path] {
		return nil
	}
	g.learned[path] = true
	name := path
	if pid > 0 {
		name = fmt.Sprintf("/proc/%d/root%s", pid, path)
	}
	f, err := os.Open(name)
	if err != nil {
		return fmt.Errorf("read excluded %s to keep it out of other buffers: %w", path, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f, maxGuarded))
	if err != nil {
		return fmt.Errorf("read excluded %s to keep it out of other buffers: %w", path, err)
	}
	g.add(path, data)
	return nil
}

// add keeps the chunks of data, the content of path.
func (g *contentGuard) add(path string, data []byte) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(data) == 0 {
		return
	}
	if len(data) < chunkSize {
		g.put(len(data), windowHash(data), path)
		return
	}
	for off := 0; off+chunkSize <= len(data); off += chunkSize {
		g.put(chunkSize, windowHash(data[off:off+chunkSize]), path)
	}
	g.put(chunkSize, windowHash(data[len(data)-chunkSize:]), path)
}

// seenBits sizes contentGuard.seen: 2^20 bits, 128 KiB.
const seenBits = 20

func (g *contentGuard) put(size int, h uint64, path string) {
	b := h >> (64 - seenBits)
	g.seen[b/64] |= 1 << (b % 64)
	m := g.chunks[size]
	if m == nil {
		m = map[uint64]string{}
		g.chunks[size] = m
	}
	m[h] = path
}

// carries returns the excluded file whose chunk buf holds, or "".
func (g *contentGuard) carries(buf []byte) string {
	g.mu.RLock()
	defer g.mu.RUnlock()
	for size, m := range g.chunks {
		if len(buf) < size {
			continue
		}
		pow := uint64(1)
		for range size {
			pow *= hashBase
		}
		h := windowHash(buf[:size])
		if p := g.lookUp(m, h); p != "" {
			return p
		}
		for i := size; i < len(buf); i++ {
			h = h*hashBase + uint64(buf[i]) - pow*uint64(buf[i-size])
			if b := h >> (64 - seenBits); g.seen[b/64]&(1<<(b%64)) == 0 {
				continue
			}
			if p := g.lookUp(m, h); p != "" {
				return p
			}
		}
	}
	return ""
}

// lookUp returns the file whose chunk of m's size hashes to h, or "".
func (g *contentGuard) lookUp(m map[uint64]string, h uint64) string {
	return m[h]
}

// windowHash is the polynomial hash the rolling scan updates a byte at a
// time.
func windowHash(b []byte) uint64 {
	var h uint64
	for _, c := range b {
		h = h*hashBase + uint64(c)
	}
	return h
}

// shortest is the length below which a buffer cannot be recognised by
// its chunks: 2*chunkSize-1 bytes of a file always hold an aligned
// chunk.
const shortest = 2*chunkSize - 1

// fileCarries returns the excluded file whose chunk the file f holds, or
// "": a file the command wrote with excluded content (cp, a redirect)
// and then read must not be stored either. It reads f with ReadAt, in
// pieces that overlap by a chunk, and leaves its offset alone.
func (g *contentGuard) fileCarries(f *os.File) string {
	g.mu.RLock()
	none := len(g.chunks) == 0
	g.mu.RUnlock()
	if none {
		return ""
	}
	const piece = 1 << 20
	buf := make([]byte, piece+chunkSize)
	for off := int64(0); ; off += piece {
		n, err := f.ReadAt(buf, off)
		if p := g.carries(buf[:n]); p != "" {
			return p
		}
		if err != nil || n < len(buf) {
			return ""
		}
	}
}
