package tracefile

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/envbisect/envbisect/trace"
)

// chunkRef is where a chunk frame is: a reader remembers it instead of
// the chunk's bytes, and reads the chunk again when its content is asked
// for (OpenContent).
type chunkRef struct {
	off    int64  // offset of the frame in the trace
	length uint32 // its stored payload's length
	crc    uint32 // its checksum, as the frame header says
	flags  uint8
	// stored is the stored payload, kept only when the trace's bytes
	// cannot be reached again by offset (NewReader over a plain
	// io.Reader).
	stored []byte
	// data is set instead when the chunk is a blob frame's bytes.
	data []byte
	// blob is set when the frame is a blob frame (read by offset when
	// ReadOptions.KeepData leaves blobs in the file), size then the
	// length of its data.
	blob bool
	size int
}

// contents is what a reader learned of a trace's file objects: each
// object in the order of its file frame, and where each chunk is.
type contents struct {
	files  []trace.FileObject
	byID   map[uint32]int // index in files
	chunks map[trace.Hash]chunkRef
	// blobs are the reader's blobs: a chunk may be stored as one (the
	// bytes of a read, with the same address), and a blob as a chunk.
	blobs map[trace.Hash][]byte
	// blobRefs are the blob frames whose bytes the reader left in the
	// file (ReadOptions.KeepData), by address; blobData reads them.
	blobRefs map[trace.Hash]chunkRef
	blobMu   sync.Mutex    // guards blobs and blobDec for blobData
	blobDec  *zstd.Decoder // for blobRefs, made at its first use
	// open gives the trace's bytes for reading chunks by offset, and how
	// to let them go; nil when the chunks are kept in stored.
	open func() (io.ReaderAt, func() error, error)
}

func newContents() *contents {
	return &contents{byID: make(map[uint32]int), chunks: make(map[trace.Hash]chunkRef)}
}

// addFile takes in a file frame's object, checking it against the chunks
// read so far.
func (c *contents) addFile(f *trace.FileObject) error {
	if f.ID == 0 {
		return fmt.Errorf("file object %q has ID 0", f.Path)
	}
	if _, ok := c.byID[f.ID]; ok {
		return fmt.Errorf("a second file object with ID %d (%q)", f.ID, f.Path)
	}
	if f.Size < 0 {
		return fmt.Errorf("file object %d (%q) has a negative size %d", f.ID, f.Path, f.Size)
	}
	if f.Why != "" && len(f.Chunks) > 0 {
		return fmt.Errorf("file object %d (%q) is marked %s but names %d chunks", f.ID, f.Path, f.Why, len(f.Chunks))
	}
	// Every chunk holds 1 to MaxChunkSize bytes.
	if f.Why == "" && (int64(len(f.Chunks)) > f.Size || f.Size > int64(len(f.Chunks))*MaxChunkSize) {
		return fmt.Errorf("file object %d (%q) names %d chunks for %d bytes", f.ID, f.Path, len(f.Chunks), f.Size)
	}
	for _, h := range f.Chunks {
		if _, ok := c.chunks[h]; !ok && !c.hasBlob(h) {
			return fmt.Errorf("file object %d (%q) names chunk %x that the trace does not contain before it", f.ID, f.Path, h[:])
		}
	}
	c.byID[f.ID] = len(c.files)
	c.files = append(c.files, *f)
	return nil
}

// chunkAsBlob returns the bytes of chunk h for an event's buffer whose
// blob the trace stores as a chunk frame; ok is false when there is no
// such chunk.
func (c *contents) chunkAsBlob(h trace.Hash, zdec func() (*zstd.Decoder, error)) (data []byte, ok bool, err error) {
	ref, ok := c.chunks[h]
	if !ok {
		return nil, false, nil
	}
	var ra io.ReaderAt
	if ref.stored == nil {
		r, release, err := c.open()
		if err != nil {
			return nil, true, err
		}
		defer release()
		ra = r
	}
	var d *zstd.Decoder
	if ref.flags&flagZstd != 0 {
		if d, err = zdec(); err != nil {
			return nil, true, err
		}
	}
	data, err = loadChunk(h, ref, ra, d)
	return data, true, err
}

// file returns the object with id, or nil.
func (c *contents) file(id uint32) *trace.FileObject {
	if c == nil {
		return nil
	}
	if i, ok := c.byID[id]; ok {
		return &c.files[i]
	}
	return nil
}

// readerAtFile opens path for reading chunks by offset.
func readerAtFile(path string) func() (io.ReaderAt, func() error, error) {
	return func() (io.ReaderAt, func() error, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, fmt.Errorf("read trace: %w", err)
		}
		return f, f.Close, nil
	}
}

// readerAtShared reads chunks through ra, which the caller keeps open.
func readerAtShared(ra io.ReaderAt) func() (io.ReaderAt, func() error, error) {
	return func() (io.ReaderAt, func() error, error) {
		return ra, func() error { return nil }, nil
	}
}

// hasBlob reports whether the reader holds a blob with address h, or
// knows where it is.
func (c *contents) hasBlob(h trace.Hash) bool {
	c.blobMu.Lock()
	defer c.blobMu.Unlock()
	if _, ok := c.blobs[h]; ok {
		return true
	}
	_, ok := c.blobRefs[h]
	return ok
}

// blobData returns the bytes of blob h: held, or read from the trace by
// offset (and held from then on). ok is false when the trace has no
// such blob frame.
func (c *contents) blobData(h trace.Hash) (data []byte, ok bool, err error) {
	c.blobMu.Lock()
	defer c.blobMu.Unlock()
	if data, ok := c.blobs[h]; ok {
		return data, true, nil
	}
	ref, ok := c.blobRefs[h]
	if !ok {
		return nil, false, nil
	}
	ra, release, err := c.open()
	if err != nil {
		return nil, true, err
	}
	defer release()
	if ref.flags&flagZstd != 0 && c.blobDec == nil {
		if c.blobDec, err = newZstdDecoder(hashSize + MaxBlobSize); err != nil {
			return nil, true, err
		}
	}
	if data, err = loadChunk(h, ref, ra, c.blobDec); err != nil {
		return nil, true, err
	}
	c.blobs[h] = data
	return data, true, nil
}

// decoder returns the decoder of blobData, for chunkAsBlob.
func (c *contents) decoder() (*zstd.Decoder, error) {
	c.blobMu.Lock()
	defer c.blobMu.Unlock()
	if c.blobDec == nil {
		var err error
		if c.blobDec, err = newZstdDecoder(hashSize + MaxBlobSize); err != nil {
			return nil, err
		}
	}
	return c.blobDec, nil
}
