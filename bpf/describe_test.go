package bpf

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
)

func nativeTable(t *testing.T) *systable.Table {
	t.Helper()
	tab, err := systable.Native()
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestDescribeTable: the descriptors say what the table's rows say.
func TestDescribeTable(t *testing.T) {
	tab := nativeTable(t)
	syscalls, ioctls, fcntls, prctls := DescribeTable(tab)
	byName := func(name string) SyscallDesc {
		t.Helper()
		row, ok := tab.ByName(name)
		if !ok {
			t.Fatalf("no row %s", name)
		}
		d, ok := syscalls[uint32(row.Nr)]
		if !ok {
			t.Fatalf("no descriptor for %s", name)
		}
		return d
	}

	for _, row := range tab.All() {
		d := syscalls[uint32(row.Nr)]
		if d.Skip != row.NoStop {
			t.Errorf("%s: Skip %v, NoStop %v", row.Name, d.Skip, row.NoStop)
		}
		for i, a := range row.Args {
			if got := d.Args[i]; got.Int32 != a.Int32 || (got.Kind != 0) != captured(a.Kind) {
				t.Errorf("%s argument %d: %+v for %+v", row.Name, i, got, a)
			}
		}
	}
	for _, name := range []string{"execve", "execveat"} {
		if d := byName(name); !d.AtEntry || d.NoReturn || d.Skip {
			t.Errorf("%s: %+v, want AtEntry", name, d)
		}
	}
	for _, name := range []string{"exit", "exit_group"} {
		if d := byName(name); !d.NoReturn || d.AtEntry || d.Skip {
			t.Errorf("%s: %+v, want NoReturn", name, d)
		}
	}
	read := byName("read").Args[1]
	if read != (ArgDesc{Kind: uint8(systable.OutBuf), LenFrom: uint8(systable.LenRet), LenArg: 2}) {
		t.Errorf("read buf: %+v", read)
	}
	if n := byName("read").Args[2]; n.Kind != 0 {
		t.Errorf("read count: %+v, want nothing captured", n)
	}
	if a := byName("execve").Args[1]; a.Kind != uint8(systable.StrArray) {
		t.Errorf("execve argv: %+v", a)
	}
	if a := byName("fstat").Args[1]; a.Kind != uint8(systable.OutBuf) || a.LenFrom != uint8(systable.LenFixed) || a.Size != 144 {
		t.Errorf("fstat statbuf: %+v", a)
	}
	if a := byName("write").Args[0]; !a.Int32 || a.Kind != 0 {
		t.Errorf("write fd: %+v, want an Int32 argument with nothing captured", a)
	}

	for _, tc := range []struct {
		name string
		m    map[uint64]SizeDir
		req  uint64
		want SizeDir
	}{
		{"TCGETS", ioctls, unix.TCGETS, SizeDir{Size: 36, Dir: DirOut}},
		{"TIOCSWINSZ", ioctls, unix.TIOCSWINSZ, SizeDir{Size: 8, Dir: DirIn}},
		{"FIONREAD", ioctls, unix.TIOCINQ, SizeDir{Size: 4, Dir: DirOut}},
		{"F_GETLK", fcntls, unix.F_GETLK, SizeDir{Size: 32, Dir: DirIn | DirOut}},
		{"F_SETLK", fcntls, unix.F_SETLK, SizeDir{Size: 32, Dir: DirIn}},
		{"F_GETOWN_EX", fcntls, unix.F_GETOWN_EX, SizeDir{Size: 8, Dir: DirOut}},
		{"PR_GET_NAME", prctls, unix.PR_GET_NAME, SizeDir{Size: 16, Dir: DirOut}},
		{"PR_SET_NAME", prctls, unix.PR_SET_NAME, SizeDir{Size: 16, Dir: DirIn}},
	} {
		if got, ok := tc.m[tc.req]; !ok || got != tc.want {
			t.Errorf("%s: %+v (listed %v), want %+v", tc.name, got, ok, tc.want)
		}
	}
	if _, ok := fcntls[unix.F_DUPFD]; ok {
		t.Errorf("F_DUPFD takes a value, yet it is sized")
	}
}

// TestDescribeTableCoversRequests: every fcntl command and prctl option
// that systable sizes is in the maps (DescribeTable finds them through
// the request argument's flag set).
func TestDescribeTableCoversRequests(t *testing.T) {
	_, _, fcntls, prctls := DescribeTable(nativeTable(t))
	for cmd := uint64(0); cmd < 1<<12; cmd++ {
		if n, _ := systable.FcntlSize(cmd); n > 0 {
			if _, ok := fcntls[cmd]; !ok {
				t.Errorf("fcntl command %d has size %d in systable but no entry", cmd, n)
			}
		}
	}
	for op := uint64(0); op < 1<<10; op++ {
		if n, _ := systable.PrctlSize(op); n > 0 {
			if _, ok := prctls[op]; !ok {
				t.Errorf("prctl option %d has size %d in systable but no entry", op, n)
			}
		}
	}
}
