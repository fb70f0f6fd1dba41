package tracefile

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/envbisect/envbisect/trace"
)

// Bounds of a Store's caches: the decoded frames it keeps (at most
// storeCacheFrames, and no more events than storeCacheEvents unless one
// frame holds more), and the blob bytes read back for them.
const (
	storeCacheFrames = 8
	storeCacheEvents = 1 << 15
	storeBlobBytes   = 16 << 20
)

// Store is a trace whose events stay in the file: it holds an index of
// the events frames (where each is, its first event and its seqs) and a
// few decoded frames, and decodes the others again from the file when a
// call is asked for. A recording of a million calls costs a few hundred
// KiB of index instead of about 280 MB of calls.
//
// A call a Store returns is decoded anew when its frame has left the
// cache: two calls for one seq may return distinct *trace.Call values
// with equal contents. Callers compare calls by seq, never by pointer,
// and must not change them. It is safe for concurrent use.
type Store struct {
	// Trace is the trace without its events: header, start events, end
	// and file objects, with OpenContent and FillData.
	Trace *Trace

	path      string
	frames    []storeFrame
	events    int            // events in all
	calls     int            // calls in all
	lastSeq   uint64         // of the last call indexed
	perThread map[uint32]int // calls by thread

	mu       sync.Mutex
	dec      *Reader // reads frames again by offset; its file is the Store's
	content  *contents
	cache    []cachedFrame // most recently used first
	cached   int           // events in cache
	blobs    map[trace.Hash][]byte
	blobSize int
	blobDec  *zstd.Decoder
}

// storeFrame is where an events frame is and what it holds.
type storeFrame struct {
	off, size int64
	first     int    // index of its first event in the trace
	n         int32  // its events
	calls     int32  // its calls
	minSeq    uint64 // the seqs of its first and last call (without calls: the last seq before it)
	maxSeq    uint64
}

// cachedFrame is a decoded frame.
type cachedFrame struct {
	i   int
	evs []trace.Event
}

// OpenStore reads the trace file path once, checking every frame as
// ReadFile does, and returns a Store of it that holds no event. For a
// trace cut short it returns the Store of its complete frames with an
// error wrapping ErrTruncated, as ReadFile does; for any other error, a
// nil Store. Close releases the file.
func OpenStore(path string) (*Store, error) {
	// The index pass keeps no blob's bytes: blob frames are remembered
	// by offset (KeepData refusing every buffer) and read back when a
	// call that holds one is decoded.
	r, err := ReadOptions{KeepData: func(*trace.Call, *trace.Mem) bool { return false }}.Open(path)
	if err != nil {
		return nil, err
	}
	s := &Store{path: path, content: r.content, blobs: make(map[trace.Hash][]byte), perThread: make(map[uint32]int)}
	r.onEvents = func(off, size int64, evs []trace.Event) { s.index(off, size, evs) }
	t, err := readAllKeep(r, func(*trace.Event) bool { return false })
	r.Close()
	if t == nil {
		return nil, err
	}
	// The Trace's content readers open the file of their own, as
	// ReadFile's do; the Store decodes through one it keeps open.
	s.content.open = readerAtFile(path)
	s.Trace = t
	dec, derr := ReadOptions{}.Open(path)
	if derr != nil {
		return nil, derr
	}
	s.dec = dec
	return s, err
}

// index records an events frame the index pass read.
func (s *Store) index(off, size int64, evs []trace.Event) {
	f := storeFrame{off: off, size: size, first: s.events, n: int32(len(evs)), minSeq: s.lastSeq, maxSeq: s.lastSeq}
	for i := range evs {
		if c := evs[i].Call; c != nil {
			if f.calls == 0 {
				f.minSeq = c.Seq
			}
			f.maxSeq = c.Seq
			f.calls++
			s.perThread[c.Thread]++
		}
	}
	s.frames = append(s.frames, f)
	s.lastSeq = f.maxSeq
	s.events += len(evs)
	s.calls += int(f.calls)
}

// Close releases the file the Store reads from.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.blobDec != nil {
		s.blobDec.Close()
		s.blobDec = nil
	}
	if s.dec == nil {
		return nil
	}
	err := s.dec.Close()
	s.dec = nil
	return err
}

// NumEvents returns how many events the trace holds (of its complete
// frames).
func (s *Store) NumEvents() int { return s.events }

// NumCalls returns how many calls the trace holds.
func (s *Store) NumCalls() int { return s.calls }

// ThreadCalls returns how many calls each thread made, by thread: what
// a caller needs to size per-thread lists without a pass of its own.
// The map is the Store's: do not change it.
func (s *Store) ThreadCalls() map[uint32]int { return s.perThread }

// Call returns the call numbered seq, decoding its frame from the file
// unless it is cached; nil and no error for a seq the trace lacks. The
// call is shared: do not change it.
func (s *Store) Call(seq uint64) (*trace.Call, error) {
	// A frame without calls has both seqs the last seq before it: it
	// sorts after the frames of the seqs up to that one.
	i, ok := slices.BinarySearchFunc(s.frames, seq, func(f storeFrame, seq uint64) int {
		switch {
		case f.maxSeq < seq:
			return -1
		case f.calls == 0 || f.minSeq > seq:
			return 1
		}
		return 0
	})
	if !ok {
		return nil, nil
	}
	s.mu.Lock()
	evs, err := s.frame(i)
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	// The first event at or after k that is a call has a seq at least
	// seq: true from the call sought on (process events lie between).
	j := sort.Search(len(evs), func(k int) bool {
		for ; k < len(evs); k++ {
			if c := evs[k].Call; c != nil {
				return c.Seq >= seq
			}
		}
		return true
	})
	for ; j < len(evs); j++ {
		if c := evs[j].Call; c != nil {
			if c.Seq == seq {
				return c, nil
			}
			break
		}
	}
	return nil, nil
}

// Each calls fn with every event in order, frame by frame, decoding
// each from the file: an in-order pass that holds one frame at a time.
// fn must not keep ev, which is reused, nor change its call (it may keep
// ev.Call and ev.Proc). It stops at fn's first error and returns it.
func (s *Store) Each(fn func(ev *trace.Event) error) error {
	for i := range s.frames {
		s.mu.Lock()
		evs, err := s.cachedOrDecoded(i)
		s.mu.Unlock()
		if err != nil {
			return err
		}
		for k := range evs {
			ev := evs[k]
			if err := fn(&ev); err != nil {
				return err
			}
		}
	}
	return nil
}

// cachedOrDecoded returns frame i's events from the cache, or decoded
// without putting them in it (a pass would push out the frames the
// runs use). s.mu is held.
func (s *Store) cachedOrDecoded(i int) ([]trace.Event, error) {
	for _, c := range s.cache {
		if c.i == i {
			return c.evs, nil
		}
	}
	return s.decode(i)
}

// frame returns frame i's events, from the cache or decoded into it.
// s.mu is held.
func (s *Store) frame(i int) ([]trace.Event, error) {
	for k, c := range s.cache {
		if c.i == i {
			copy(s.cache[1:k+1], s.cache[:k])
			s.cache[0] = c
			return c.evs, nil
		}
	}
	evs, err := s.decode(i)
	if err != nil {
		return nil, err
	}
	s.cache = slices.Insert(s.cache, 0, cachedFrame{i: i, evs: evs})
	s.cached += len(evs)
	for len(s.cache) > 1 && (len(s.cache) > storeCacheFrames || s.cached > storeCacheEvents) {
		last := len(s.cache) - 1
		s.cached -= len(s.cache[last].evs)
		s.cache[last] = cachedFrame{}
		s.cache = s.cache[:last]
	}
	return evs, nil
}

// decode reads frame i again from the file: its checksum, payload and
// events as the index pass did, with its buffers' bytes put back. The
// file was checked whole when the Store was made; an error here means it
// changed since, or could not be read. s.mu is held.
func (s *Store) decode(i int) ([]trace.Event, error) {
	if s.dec == nil {
		return nil, fmt.Errorf("read trace %s: the store is closed", s.path)
	}
	f := s.frames[i]
	d := s.dec
	d.r.Reset(io.NewSectionReader(d.file, f.off, f.size))
	d.off = f.off
	t, p, off, err := d.readFrame()
	if err == nil && t != frameEvents {
		err = corruptFrame(off, nil, "a %s frame where an events frame was", t)
	}
	if err != nil {
		return nil, s.changed(err)
	}
	var evs []trace.Event
	if err := d.dm.Unmarshal(p, &evs); err != nil {
		return nil, s.changed(corruptPayload(off, err, "events"))
	}
	if len(evs) != int(f.n) {
		return nil, s.changed(corruptFrame(off, nil, "%d events where %d were", len(evs), f.n))
	}
	for k := range evs {
		if err := s.fill(&evs[k]); err != nil {
			return nil, s.changed(corruptFrame(off, nil, "%s", err))
		}
	}
	return evs, nil
}

// changed wraps an error of reading a frame again.
func (s *Store) changed(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, ErrTruncated) {
		err = &formatError{kind: ErrTruncated, msg: "the file is shorter than when it was read: " + err.Error()}
	}
	return fmt.Errorf("read trace %s again (it changed since it was read?): %w", s.path, err)
}

// fill puts the bytes of ev's out-of-line buffers back, as the reader
// does, and shares its paths with the other frames'. s.mu is held.
func (s *Store) fill(ev *trace.Event) error {
	c := ev.Call
	if c == nil {
		return nil
	}
	c.Path, c.Path2 = s.dec.intern(c.Path), s.dec.intern(c.Path2)
	for i := range c.Mem {
		m := &c.Mem[i]
		if m.Blob == nil {
			continue
		}
		data, err := s.blob(*m.Blob)
		switch {
		case err != nil:
			return fmt.Errorf("event at seq %d, buffer %d: %w", c.Seq, i, err)
		case data == nil:
			return fmt.Errorf("event at seq %d references blob %x that the trace does not contain", c.Seq, m.Blob[:])
		case uint64(len(data)) > m.Len:
			return fmt.Errorf("event at seq %d, buffer %d: %d bytes of data are more than its length %d", c.Seq, i, len(data), m.Len)
		}
		m.Data = data
	}
	return nil
}

// blob returns the bytes at address h: from the Store's cache of blobs
// read back (emptied when it holds storeBlobBytes), or read from the
// file, blob frame or file chunk; nil when the trace has none. s.mu is
// held.
func (s *Store) blob(h trace.Hash) ([]byte, error) {
	if data, ok := s.blobs[h]; ok {
		return data, nil
	}
	c := s.content
	c.blobMu.Lock()
	data, held := c.blobs[h]
	ref, inFile := c.blobRefs[h]
	c.blobMu.Unlock()
	var err error
	switch {
	case held:
		return data, nil
	case inFile:
		if ref.flags&flagZstd != 0 && s.blobDec == nil {
			if s.blobDec, err = newZstdDecoder(hashSize + MaxBlobSize); err != nil {
				return nil, err
			}
		}
		if data, err = loadChunk(h, ref, s.dec.file, s.blobDec); err != nil {
			return nil, err
		}
	default:
		var ok bool
		if data, ok, err = c.chunkAsBlob(h, c.decoder); err != nil || !ok {
			return nil, err
		}
	}
	if data == nil {
		data = []byte{}
	}
	if s.blobSize+len(data) > storeBlobBytes {
		clear(s.blobs)
		s.blobSize = 0
	}
	s.blobs[h] = data
	s.blobSize += len(data)
	return data, nil
}
