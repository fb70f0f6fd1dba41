package sandbox

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// Bundle holds the contents a run's OpWrite operations name, for the
// helper that applies them (package launch passes it as a descriptor;
// the helper needs no path, which in a container it could not reach):
// one sealed memfd with the contents back to back, and its index. A
// Bundle is itself Contents, so one made for several runs is reused
// rather than copied again.
type Bundle struct {
	file  *os.File
	index BundleIndex
}

// NewBundle copies the contents hashes name from src into a new sealed
// memfd, each once, checking each against its hash.
func NewBundle(hashes []trace.Hash, src Contents) (*Bundle, error) {
	fd, err := unix.MemfdCreate("envbisect-objects", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, fmt.Errorf("objects' contents: memfd_create: %w", err)
	}
	b := &Bundle{file: os.NewFile(uintptr(fd), "envbisect-objects")}
	var off int64
	for _, h := range hashes {
		if _, ok := b.index.find(h); ok {
			continue
		}
		n, err := b.add(h, src)
		if err != nil {
			b.Close()
			return nil, err
		}
		b.index = append(b.index, BundleEntry{SHA256: h, Offset: off, Size: n})
		off += n
	}
	seals := unix.F_SEAL_SEAL | unix.F_SEAL_SHRINK | unix.F_SEAL_GROW | unix.F_SEAL_WRITE
	if _, err := unix.FcntlInt(b.file.Fd(), unix.F_ADD_SEALS, seals); err != nil {
		b.Close()
		return nil, fmt.Errorf("objects' contents: seal: %w", err)
	}
	return b, nil
}

// add appends the content h from src and returns its length.
func (b *Bundle) add(h trace.Hash, src Contents) (int64, error) {
	if src == nil {
		return 0, fmt.Errorf("content %x: no contents given", h[:6])
	}
	rc, err := src.OpenHash(h)
	if err != nil {
		return 0, fmt.Errorf("content %x: %w", h[:6], err)
	}
	defer rc.Close()
	sum := sha256.New()
	n, err := io.Copy(io.MultiWriter(b.file, sum), rc)
	if err != nil {
		return 0, fmt.Errorf("content %x: copy into the run's bundle: %w", h[:6], err)
	}
	if got := trace.Hash(sum.Sum(nil)); got != h {
		return 0, fmt.Errorf("content %x: the source gave bytes whose SHA-256 is %x", h[:6], got[:6])
	}
	return n, nil
}

// File is the bundle's memfd, for the helper.
func (b *Bundle) File() *os.File { return b.file }

// Index says where each content is in File.
func (b *Bundle) Index() BundleIndex { return b.index }

// Has reports whether the bundle holds every content of hashes.
func (b *Bundle) Has(hashes []trace.Hash) bool {
	for _, h := range hashes {
		if _, ok := b.index.find(h); !ok {
			return false
		}
	}
	return true
}

// OpenHash reads the content h from the bundle.
func (b *Bundle) OpenHash(h trace.Hash) (io.ReadCloser, error) {
	return openEntry(b.file, b.index, h)
}

// Close releases the memfd.
func (b *Bundle) Close() error { return b.file.Close() }

// BundleAt returns the Contents of a bundle held as descriptor fd, with
// index idx: the helper's side of a Bundle. Closing the returned closer
// closes fd.
func BundleAt(fd int, idx BundleIndex) (Contents, io.Closer) {
	f := os.NewFile(uintptr(fd), "envbisect-objects")
	return bundleFile{f, idx}, f
}

type bundleFile struct {
	f   *os.File
	idx BundleIndex
}

func (b bundleFile) OpenHash(h trace.Hash) (io.ReadCloser, error) { return openEntry(b.f, b.idx, h) }

// openEntry reads h's entry of idx from f.
func openEntry(f *os.File, idx BundleIndex, h trace.Hash) (io.ReadCloser, error) {
	e, ok := idx.find(h)
	if !ok {
		return nil, fmt.Errorf("content %x is not in the run's bundle", h[:6])
	}
	if e.Offset < 0 || e.Size < 0 {
		return nil, errors.New("a bundle entry with a negative offset or size")
	}
	return io.NopCloser(io.NewSectionReader(f, e.Offset, e.Size)), nil
}
