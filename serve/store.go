package serve

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// Source is where a Store finds file objects and their content: a
// trace read by package tracefile.
type Source interface {
	// File returns the file object with id, or nil.
	File(id uint32) *trace.FileObject
	// OpenContent streams f's stored content; it fails when the content
	// is not in the trace or does not match its hash.
	OpenContent(f *trace.FileObject) (io.ReadCloser, error)
}

// Store serves the file objects of one trace to the runs of one process.
// It is safe for concurrent use; Close releases its memfds.
type Store struct {
	src Source

	mu    sync.Mutex
	files map[uint32]*os.File // materialized content, sealed memfds
}

// NewStore returns a Store over src.
func NewStore(src Source) *Store {
	return &Store{src: src, files: make(map[uint32]*os.File)}
}

// ErrNotStored is wrapped by the errors of objects the trace lacks the
// content of.
var ErrNotStored = errors.New("content not in the trace")

// Servable returns the file object id if its content can be served, or
// an error wrapping ErrNotStored that says why not (for a plan or a
// report: "excluded", "over-budget").
func (s *Store) Servable(id uint32) (*trace.FileObject, error) {
	if s == nil || id == 0 {
		return nil, fmt.Errorf("no file object: %w", ErrNotStored)
	}
	f := s.src.File(id)
	if f == nil {
		return nil, fmt.Errorf("file object %d is not in the trace: %w", id, ErrNotStored)
	}
	if f.Mode&unix.S_IFMT != unix.S_IFREG {
		return f, fmt.Errorf("%s: not a regular file: %w", f.Path, ErrNotStored)
	}
	if !f.Stored() {
		why := f.Why
		if why == "" {
			why = "no content"
		}
		return f, fmt.Errorf("%s: %s: %w", f.Path, why, ErrNotStored)
	}
	return f, nil
}

// Close releases the materialized content.
func (s *Store) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var first error
	for id, f := range s.files {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
		delete(s.files, id)
	}
	return first
}
