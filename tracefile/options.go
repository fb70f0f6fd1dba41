package tracefile

import (
	"fmt"
	"io"

	"github.com/envbisect/envbisect/trace"
)

// DefaultBlobThreshold is the size from which a captured buffer is stored
// out of line, as a content-addressed blob, when Options.BlobThreshold is 0.
//
// A blob costs about 80 bytes more than inline data (its frame header, its
// address stored twice) and is compressed on its own, without the context
// of its neighbours; file contents (reads of 4 KiB and more, directory
// listings) gain from being stored once, while stat structs, socket
// addresses and short reads do not. BenchmarkWriteEvents measured a
// threshold of 64 bytes at 2.7 times the time and 1.5 times the size of
// this one.
const DefaultBlobThreshold = 512

// maxBlobThreshold caps Options.BlobThreshold, so that inline data can
// never push one event past the frame limits.
const maxBlobThreshold = 1 << 20

// Options tunes a Writer. The zero value is the default.
type Options struct {
	// BlobThreshold is the length from which a buffer's bytes are stored
	// once per file in a blob frame instead of inline in its event.
	// 0 means DefaultBlobThreshold; values above 1 MiB count as 1 MiB.
	BlobThreshold int
	// Compression of frame payloads; the zero value is ZstdFastest.
	Compression Compression
	// ContentCompression of file content chunks, which ContentWriters
	// compress off the recording path; the zero value is ZstdFastest
	// (Uncompressed when Compression is). On the python workload of
	// docs/performance.md, ZstdDefault made the trace 9.2 MiB instead of
	// 9.6 and recording 1.12 times as slow as without contents instead
	// of 1.09 (tools/contentsize).
	ContentCompression Compression
	// Replace lets Create replace an existing file that is not a trace
	// (record --force); a trace is always replaced.
	Replace bool
}

// contentCompression is the level content chunks are compressed at.
func (o Options) contentCompression() Compression {
	if o.Compression == Uncompressed {
		return Uncompressed
	}
	return o.ContentCompression
}

func (o Options) threshold() (int, error) {
	switch {
	case o.BlobThreshold < 0:
		return 0, fmt.Errorf("blob threshold %d is negative", o.BlobThreshold)
	case o.BlobThreshold == 0:
		return DefaultBlobThreshold, nil
	}
	return min(o.BlobThreshold, maxBlobThreshold), nil
}

// Create creates the trace file path, mode 0600 (a trace holds file
// contents), and writes the preamble and the header frame at once, so that
// an unwritable path fails before the command runs. The trace is written
// beside path and renamed over it when the Writer is closed (see
// output.go); an existing path is replaced only when it is a trace, or with
// Options.Replace, and a symbolic link at path is refused.
func (o Options) Create(path string, h *trace.Header) (*Writer, error) {
	out, err := openOutput(path, o.Replace)
	if err != nil {
		return nil, fmt.Errorf("create trace: %w", err)
	}
	w, err := o.newWriter(out.f, out.f, path, h)
	if err != nil {
		out.f.Close()
		out.discard()
		return nil, err
	}
	w.dest = out
	return w, nil
}

// NewWriter writes a trace to w, starting with the preamble and the header
// frame. Close does not close w; it calls w's Sync method if it has one.
func (o Options) NewWriter(w io.Writer, h *trace.Header) (*Writer, error) {
	return o.newWriter(w, nil, "", h)
}

// Create creates a trace file with the default Options; see Options.Create.
func Create(path string, h *trace.Header) (*Writer, error) {
	return Options{}.Create(path, h)
}

// NewWriter writes a trace to w with the default Options; see
// Options.NewWriter.
func NewWriter(w io.Writer, h *trace.Header) (*Writer, error) {
	return Options{}.NewWriter(w, h)
}
