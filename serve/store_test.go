package serve

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
)

// memSource is a Source over file objects and contents held in memory.
type memSource struct {
	files   []trace.FileObject
	content map[uint32][]byte
	opened  int
}

func (m *memSource) File(id uint32) *trace.FileObject {
	if id == 0 || int(id) > len(m.files) {
		return nil
	}
	return &m.files[id-1]
}

func (m *memSource) OpenContent(f *trace.FileObject) (io.ReadCloser, error) {
	m.opened++
	return io.NopCloser(bytes.NewReader(m.content[f.ID])), nil
}

func newMemSource(data []byte) *memSource {
	return &memSource{
		files: []trace.FileObject{
			{ID: 1, Path: "/usr/lib/libgood.so", Size: int64(len(data)), Mode: unix.S_IFREG | 0o644, UID: 0, GID: 0,
				Mtime: 1700000000_123456789, SHA256: sha256.Sum256(data), Chunks: []trace.Hash{sha256.Sum256(data)}},
			{ID: 2, Path: "/etc/secret", Size: 10, Mode: unix.S_IFREG | 0o600, Why: trace.ContentExcluded},
		},
		content: map[uint32][]byte{1: data},
	}
}

// TestFillServesTheRecordedFile: a memfd of this process filled with a
// recorded file reads, maps and stats as that file, and a read-only one
// refuses writes.
func TestFillServesTheRecordedFile(t *testing.T) {
	data := bytes.Repeat([]byte("good library bytes\n"), 50000)
	src := newMemSource(data)
	s := NewStore(src)
	defer s.Close()
	for range 2 {
		fd, err := unix.MemfdCreate("stand-in", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
		if err != nil {
			t.Fatal(err)
		}
		f := os.NewFile(uintptr(fd), "stand-in")
		defer f.Close()
		if err := s.Fill(os.Getpid(), fd, 1, true); err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(f)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read %d bytes (%v), want the %d recorded ones", len(got), err, len(data))
		}
		m, err := unix.Mmap(fd, 0, len(data), unix.PROT_READ, unix.MAP_SHARED)
		if err != nil {
			t.Fatalf("mmap: %v", err)
		}
		if !bytes.Equal(m, data) {
			t.Errorf("the mapping differs from the recorded bytes")
		}
		unix.Munmap(m)
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			t.Fatal(err)
		}
		if st.Size != int64(len(data)) || st.Mode&0o7777 != 0o644 || st.Mtim.Nano() != 1700000000_123456789 {
			t.Errorf("fstat: size %d mode %o mtime %d, want the recorded %d 644 1700000000123456789", st.Size, st.Mode&0o7777, st.Mtim.Nano(), len(data))
		}
		if _, err := f.WriteAt([]byte("x"), 0); err == nil {
			t.Errorf("a read-only served file took a write")
		}
	}
	if src.opened != 1 {
		t.Errorf("the content was read from the trace %d times for two fills, want once", src.opened)
	}
}

// TestServableSaysWhy: content the trace does not hold is refused with
// the reason record gave.
func TestServableSaysWhy(t *testing.T) {
	s := NewStore(newMemSource([]byte("x")))
	_, err := s.Servable(2)
	if !errors.Is(err, ErrNotStored) || !bytes.Contains([]byte(err.Error()), []byte("excluded")) {
		t.Errorf("Servable of excluded content: %v", err)
	}
	src := newMemSource([]byte("x"))
	src.files = append(src.files, trace.FileObject{ID: 3, Path: "/etc/app.d", Mode: unix.S_IFDIR | 0o755})
	if _, err := NewStore(src).Servable(3); !errors.Is(err, ErrNotStored) {
		t.Errorf("Servable of a directory: %v", err)
	}
	if _, err := s.Servable(9); !errors.Is(err, ErrNotStored) {
		t.Errorf("Servable of a missing object: %v", err)
	}
}

// TestFillDropsSetID: a file recorded set-user-ID or set-group-ID is
// served without those bits: a trace is data whoever made it chose, and a
// root-owned memfd with them would run its bytes with root's rights.
func TestFillDropsSetID(t *testing.T) {
	data := []byte("\x7fELF not really\n")
	src := newMemSource(data)
	src.files[0].Mode = unix.S_IFREG | unix.S_ISUID | unix.S_ISGID | 0o755
	s := NewStore(src)
	defer s.Close()
	fd, err := unix.MemfdCreate("stand-in", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if err := s.Fill(os.Getpid(), fd, 1, true); err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		t.Fatal(err)
	}
	if st.Mode&0o7777 != 0o755 {
		t.Errorf("served mode %o, want 755 (the recorded 6755 without set-ID bits)", st.Mode&0o7777)
	}
}

// TestFillRefusesWhatIsNotAStandIn: an fd that is not an empty stand-in
// memfd (a real file the program opened, a memfd already filled, one
// without sealing) is refused, and left as it was: its bytes and mode.
func TestFillRefusesWhatIsNotAStandIn(t *testing.T) {
	s := NewStore(newMemSource([]byte("good library bytes\n")))
	defer s.Close()
	real := t.TempDir() + "/libreal.so"
	if err := os.WriteFile(real, []byte("the user's own file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	realFD, err := unix.Open(real, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(realFD)
	full, err := unix.MemfdCreate("stand-in", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(full)
	if _, err := unix.Write(full, []byte("the program's own bytes")); err != nil {
		t.Fatal(err)
	}
	unsealable, err := unix.MemfdCreate("stand-in", unix.MFD_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(unsealable)
	for _, c := range []struct {
		name string
		fd   int
		want string
	}{
		{"a real file", realFD, "not a stand-in memfd"},
		{"a memfd with bytes", full, "holds 23 bytes already"},
		{"a memfd without sealing", unsealable, "is not a stand-in"},
	} {
		err := s.Fill(os.Getpid(), c.fd, 1, true)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "not filled") {
			t.Errorf("%s: Fill gave %v, want an error saying %q", c.name, err, c.want)
		}
	}
	if b, _ := os.ReadFile(real); string(b) != "the user's own file\n" {
		t.Errorf("the real file now holds %q", b)
	}
	if st, err := os.Stat(real); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("the real file's mode is %v (%v), want 600", st.Mode().Perm(), err)
	}
}

// TestFillUnderMemfdNoexec: a stand-in the kernel sealed against exec
// (vm.memfd_noexec, MFD_NOEXEC_SEAL: Linux 6.3) is still a stand-in.
func TestFillUnderMemfdNoexec(t *testing.T) {
	testutil.Require(t, testutil.File("/proc/sys/vm/memfd_noexec"))
	s := NewStore(newMemSource([]byte("good library bytes\n")))
	defer s.Close()
	fd, err := unix.MemfdCreate("stand-in", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING|unix.MFD_NOEXEC_SEAL)
	if err != nil {
		t.Fatalf("memfd_create MFD_NOEXEC_SEAL: %v", err)
	}
	defer unix.Close(fd)
	if err := s.Fill(os.Getpid(), fd, 1, true); err != nil {
		t.Errorf("a stand-in sealed against exec only: %v, want it filled", err)
	}
}
