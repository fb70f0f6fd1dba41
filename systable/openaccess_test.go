package systable

import (
	"encoding/binary"
	"testing"

	"golang.org/x/sys/unix"
)

// TestOpensReadOnly: the access mode comes from the open flags in a
// register or in openat2's open_how; creat always writes.
func TestOpensReadOnly(t *testing.T) {
	tab := amd64Table(t)
	args := func(v ...uint64) (a [6]uint64) { copy(a[:], v); return a }
	how := func(flags uint64) []byte {
		return append(binary.LittleEndian.AppendUint64(nil, flags), make([]byte, 16)...)
	}
	cases := []struct {
		name, call string
		args       [6]uint64
		how        []byte
		want       bool
	}{
		{"open O_RDONLY|O_CLOEXEC", "openat", args(neg32(unix.AT_FDCWD), 0, unix.O_RDONLY|unix.O_CLOEXEC), nil, true},
		{"open O_RDWR", "openat", args(neg32(unix.AT_FDCWD), 0, unix.O_RDWR), nil, false},
		{"open O_WRONLY|O_CREAT", "open", args(0, unix.O_WRONLY|unix.O_CREAT, 0o644), nil, false},
		{"openat2 O_RDONLY", "openat2", args(neg32(unix.AT_FDCWD), 0, 0, 24), how(unix.O_RDONLY), true},
		{"openat2 O_RDWR", "openat2", args(neg32(unix.AT_FDCWD), 0, 0, 24), how(unix.O_RDWR), false},
		{"openat2 open_how not captured", "openat2", args(neg32(unix.AT_FDCWD), 0, 0, 24), nil, false},
		{"creat", "creat", args(0, 0o644), nil, false},
		{"read", "read", args(3, 0, 10), nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, _ := tab.ByName(c.call)
			if got := r.OpensReadOnly(c.args, c.how); got != c.want {
				t.Errorf("OpensReadOnly = %v, want %v", got, c.want)
			}
		})
	}
}
