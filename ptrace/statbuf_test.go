package ptrace

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// TestStatBufKey checks that the identity keepStated reads from the
// buffer a newfstatat or statx returned to the command is the one a stat
// of the tracer's own gives: the key files are kept and declined by.
func TestStatBufKey(t *testing.T) {
	tab, err := systable.Native()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("some bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	var want unix.Stat_t
	if err := unix.Lstat(p, &want); err != nil {
		t.Fatal(err)
	}
	sb := newStatBuf()

	var st unix.Stat_t
	if err := unix.Fstatat(unix.AT_FDCWD, p, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		t.Fatal(err)
	}
	raw := unsafe.Slice((*byte)(unsafe.Pointer(&st)), unsafe.Sizeof(st))
	row := tab.ByNr(unix.SYS_NEWFSTATAT)
	call := &trace.Call{Mem: []trace.Mem{{Arg: uint8(row.StructArg(systable.StructStat)), Dir: trace.Out, Data: append([]byte(nil), raw...)}}}
	var got unix.Stat_t
	if !sb.decode(row, call, &got) {
		t.Fatal("newfstatat: buffer not decoded")
	}
	check(t, "newfstatat", &got, &want)

	var x unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, p, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_BASIC_STATS, &x); err != nil {
		t.Fatal(err)
	}
	raw = unsafe.Slice((*byte)(unsafe.Pointer(&x)), unsafe.Sizeof(x))
	row = tab.ByNr(unix.SYS_STATX)
	call = &trace.Call{Mem: []trace.Mem{{Arg: uint8(row.StructArg(systable.StructStatx)), Dir: trace.Out, Data: append([]byte(nil), raw...)}}}
	got = unix.Stat_t{}
	if !sb.decode(row, call, &got) {
		t.Fatal("statx: buffer not decoded")
	}
	check(t, "statx", &got, &want)

	// A statx that was not asked for the size leaves the key to a stat.
	x.Mask &^= unix.STATX_SIZE
	raw = unsafe.Slice((*byte)(unsafe.Pointer(&x)), unsafe.Sizeof(x))
	call.Mem[0].Data = append([]byte(nil), raw...)
	if sb.decode(row, call, &got) {
		t.Error("statx without STATX_SIZE decoded")
	}
	// No buffer (not captured): the caller stats.
	if sb.decode(row, &trace.Call{}, &got) {
		t.Error("a call without its buffer decoded")
	}
}

func check(t *testing.T, what string, got, want *unix.Stat_t) {
	t.Helper()
	if statKey(got) != statKey(want) || got.Mode != want.Mode {
		t.Errorf("%s: key %+v mode %o, want %+v mode %o", what, statKey(got), got.Mode, statKey(want), want.Mode)
	}
}
