package systable

import (
	"encoding/binary"
	"testing"

	"golang.org/x/sys/unix"
)

func TestFDChangeOf(t *testing.T) {
	tab := amd64Table(t)
	args := func(v ...uint64) (a [6]uint64) { copy(a[:], v); return a }
	pair := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 5), 6)
	how := binary.LittleEndian.AppendUint64(make([]byte, 0, 24), unix.O_CLOEXEC)
	how = append(how, make([]byte, 16)...)
	cases := []struct {
		name, call string
		args       [6]uint64
		ret        int64
		pair, how  []byte
		want       FDChange
	}{
		{"open", "openat", args(neg32(unix.AT_FDCWD), 0, unix.O_RDONLY), 3, nil, nil, FDChange{Op: FDMade, FD: 3, From: -1}},
		{"open O_CLOEXEC", "openat", args(neg32(unix.AT_FDCWD), 0, unix.O_RDONLY|unix.O_CLOEXEC), 4, nil, nil, FDChange{Op: FDMade, FD: 4, From: -1, Cloexec: true}},
		{"openat2 open_how O_CLOEXEC", "openat2", args(neg32(unix.AT_FDCWD), 0, 0, 24), 4, nil, how, FDChange{Op: FDMade, FD: 4, From: -1, Cloexec: true}},
		{"failed open", "openat", args(neg32(unix.AT_FDCWD), 0, 0), -2, nil, nil, FDChange{}},
		{"dup", "dup", args(3), 7, nil, nil, FDChange{Op: FDCopied, FD: 7, From: 3}},
		{"dup3 O_CLOEXEC", "dup3", args(3, 9, unix.O_CLOEXEC), 9, nil, nil, FDChange{Op: FDCopied, FD: 9, From: 3, Cloexec: true}},
		{"F_DUPFD_CLOEXEC", "fcntl", args(3, unix.F_DUPFD_CLOEXEC, 10), 10, nil, nil, FDChange{Op: FDCopied, FD: 10, From: 3, Cloexec: true}},
		{"pipe2", "pipe2", args(0, unix.O_CLOEXEC), 0, pair, nil, FDChange{Op: FDMadePair, From: -1, Pair: [2]int32{5, 6}, Cloexec: true}},
		{"pipe not captured", "pipe", args(0), 0, nil, nil, FDChange{}},
		{"close", "close", args(3), 0, nil, nil, FDChange{Op: FDClosed, FD: 3, From: -1}},
		{"close_range", "close_range", args(3, 9, unix.CLOSE_RANGE_CLOEXEC), 0, nil, nil,
			FDChange{Op: FDClosedRange, From: -1, First: 3, Last: 9, RangeFlags: unix.CLOSE_RANGE_CLOEXEC}},
		{"F_SETFD", "fcntl", args(3, unix.F_SETFD, unix.FD_CLOEXEC), 0, nil, nil, FDChange{Op: FDFlagged, FD: 3, From: -1, Cloexec: true}},
		{"FIONCLEX", "ioctl", args(3, ioFIONCLEX), 0, nil, nil, FDChange{Op: FDFlagged, FD: 3, From: -1}},
		{"read", "read", args(3, 0, 10), 10, nil, nil, FDChange{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, _ := tab.ByName(c.call)
			if got := r.FDChangeOf(c.args, c.ret, c.pair, c.how); got != c.want {
				t.Errorf("FDChangeOf = %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestFDTableApply(t *testing.T) {
	tab := NewFDTable[string]()
	name := func(fd, from int32) string {
		if from >= 0 {
			ref, _ := tab.Get(from)
			return ref
		}
		return "new"
	}
	steps := []FDChange{
		{Op: FDMade, FD: 3, From: -1},
		{Op: FDCopied, FD: 4, From: 3, Cloexec: true},
		{Op: FDCopied, FD: 3, From: 3}, // dup2(3, 3): nothing
		{Op: FDMadePair, From: -1, Pair: [2]int32{5, 6}},
		{Op: FDFlagged, FD: 5, Cloexec: true},
		{Op: FDClosed, FD: 6},
	}
	for _, ch := range steps {
		if got := tab.Apply(ch, name); got != tab {
			t.Fatalf("Apply(%+v) returned another table", ch)
		}
	}
	if ref, _ := tab.Get(4); ref != "new" || !tab.Cloexec(4) || tab.Cloexec(3) {
		t.Errorf("dup: fd 4 = %q cloexec %v, fd 3 cloexec %v", ref, tab.Cloexec(4), tab.Cloexec(3))
	}
	if _, ok := tab.Get(6); ok || !tab.Cloexec(5) || tab.Len() != 3 {
		t.Errorf("pair, F_SETFD, close: %d fds, fd 5 cloexec %v", tab.Len(), tab.Cloexec(5))
	}
	own := tab.Apply(FDChange{Op: FDClosedRange, First: 4, Last: ^uint32(0), RangeFlags: unix.CLOSE_RANGE_UNSHARE}, name)
	if own == tab || own.Len() != 1 || tab.Len() != 3 {
		t.Errorf("close_range UNSHARE: %d fds in the process's new table, %d in the old", own.Len(), tab.Len())
	}
}

func TestForkVforkFlags(t *testing.T) {
	if ForkFlags != uint64(unix.SIGCHLD) || VforkFlags != unix.CLONE_VM|unix.CLONE_VFORK|uint64(unix.SIGCHLD) {
		t.Errorf("ForkFlags %#x, VforkFlags %#x: not what the kernel's fork and vfork pass", ForkFlags, VforkFlags)
	}
	if s := CloneSharing(VforkFlags); !s.VM || !s.Vfork || s.FDs || s.FS {
		t.Errorf("vfork shares %+v", s)
	}
}
