package serve

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// content returns a sealed memfd holding f's content, made on first use.
func (s *Store) content(f *trace.FileObject) (*os.File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m, ok := s.files[f.ID]; ok {
		return m, nil
	}
	m, err := s.materialize(f)
	if err != nil {
		return nil, err
	}
	s.files[f.ID] = m
	return m, nil
}

// materialize copies f's content from the trace into a new memfd and
// seals it against any change.
func (s *Store) materialize(f *trace.FileObject) (*os.File, error) {
	fd, err := unix.MemfdCreate("envbisect-content", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, fmt.Errorf("serve %s: memfd_create: %w", f.Path, err)
	}
	m := os.NewFile(uintptr(fd), "envbisect-content:"+f.Path)
	r, err := s.src.OpenContent(f)
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("serve %s: %w", f.Path, err)
	}
	n, err := io.Copy(m, r)
	r.Close()
	if err == nil && n != f.Size {
		err = fmt.Errorf("the trace holds %d bytes of a %d-byte file", n, f.Size)
	}
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("serve %s: %w", f.Path, err)
	}
	if _, err := unix.FcntlInt(m.Fd(), unix.F_ADD_SEALS, unix.F_SEAL_SEAL|unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE); err != nil {
		m.Close()
		return nil, fmt.Errorf("serve %s: seal: %w", f.Path, err)
	}
	return m, nil
}
