package systable

import (
	"encoding/binary"
	"testing"
)

func TestOpensForReading(t *testing.T) {
	tab, err := New("amd64")
	if err != nil {
		t.Fatal(err)
	}
	how := func(flags uint64) []byte { return binary.LittleEndian.AppendUint64(nil, flags) }
	const rdonly, wronly, rdwr, path, creat, cloexec = 0, 1, 2, 0x200000, 0x40, 0x80000
	cases := []struct {
		name string
		args [6]uint64
		how  []byte
		want bool
	}{
		{"open", [6]uint64{0, rdonly | cloexec}, nil, true},
		{"open", [6]uint64{0, rdwr | creat}, nil, true},
		{"open", [6]uint64{0, wronly | creat}, nil, false},
		{"open", [6]uint64{0, path}, nil, false},
		{"openat", [6]uint64{0xffffff9c, 0, rdonly}, nil, true},
		{"openat", [6]uint64{0xffffff9c, 0, wronly}, nil, false},
		{"openat2", [6]uint64{0xffffff9c, 0, 0, 24}, how(rdonly), true},
		{"openat2", [6]uint64{0xffffff9c, 0, 0, 24}, how(wronly), false},
		{"openat2", [6]uint64{0xffffff9c, 0, 0, 24}, nil, false},
		{"creat", [6]uint64{0, 0o644}, nil, false},
		{"read", [6]uint64{3, 0, 10}, nil, false},
		{"mkdir", [6]uint64{0, 0o755}, nil, false},
	}
	for _, c := range cases {
		row, ok := tab.ByName(c.name)
		if !ok {
			t.Fatalf("no row %s", c.name)
		}
		if got := row.OpensForReading(c.args, c.how); got != c.want {
			t.Errorf("%s %#x: %v, want %v", c.name, c.args, got, c.want)
		}
	}
}
