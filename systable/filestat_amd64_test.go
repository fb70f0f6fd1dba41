package systable

import (
	"os"
	"path/filepath"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// DecodeFileStat reads what the kernel wrote into a struct stat and a
// struct statx of the same file.
func TestDecodeFileStat(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("hello"), 0o640); err != nil {
		t.Fatal(err)
	}
	mtime := time.Unix(1700000000, 123456789)
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	want := FileStat{Mode: unix.S_IFREG | 0o640, UID: uint32(os.Getuid()), GID: uint32(os.Getgid()), Size: 5,
		MtimeNS: mtime.UnixNano(), Valid: StatType | StatPerm | StatOwner | StatSize | StatMtime}

	var st unix.Stat_t
	if err := unix.Stat(p, &st); err != nil {
		t.Fatal(err)
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&st)), unsafe.Sizeof(st))
	if got, ok := DecodeFileStat("amd64", StructStat, b); !ok || got != want {
		t.Errorf("struct stat: %+v, %v; want %+v", got, ok, want)
	}
	var stx unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, p, 0, unix.STATX_BASIC_STATS, &stx); err != nil {
		t.Fatal(err)
	}
	b = unsafe.Slice((*byte)(unsafe.Pointer(&stx)), unsafe.Sizeof(stx))
	if got, ok := DecodeFileStat("amd64", StructStatx, b); !ok || got != want {
		t.Errorf("struct statx: %+v, %v; want %+v", got, ok, want)
	}
	if _, ok := DecodeFileStat("amd64", StructStat, b[:100]); ok {
		t.Error("a short struct stat decoded")
	}
	if _, ok := DecodeFileStat("mips", StructStat, b); ok {
		t.Error("an unknown architecture's struct stat decoded")
	}
}
