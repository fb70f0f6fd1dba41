package trace

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
)

func TestMemOfDir(t *testing.T) {
	c := &Call{Mem: []Mem{
		{Arg: 1, Part: PartWhole, Dir: In, Data: []byte("in")},
		{Arg: 1, Part: PartWhole, Dir: Out, Data: []byte("out")},
		{Arg: 2, Part: PartName, Dir: Out, Data: []byte("name")},
	}}
	for _, tc := range []struct {
		name string
		arg  uint8
		part Part
		dir  Dir
		want string
	}{
		{"either direction: the first", 1, PartWhole, 0, "in"},
		{"in", 1, PartWhole, In, "in"},
		{"out", 1, PartWhole, Out, "out"},
		{"part", 2, PartName, Out, "name"},
		{"missing direction", 2, PartName, In, ""},
		{"missing part", 2, PartWhole, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := c.MemOfDir(tc.arg, tc.part, tc.dir)
			if got := ""; m != nil {
				got = string(m.Data)
				if got != tc.want {
					t.Errorf("MemOfDir(%d, %d, %d) = %q, want %q", tc.arg, tc.part, tc.dir, got, tc.want)
				}
			} else if tc.want != "" {
				t.Errorf("MemOfDir(%d, %d, %d) = nil, want %q", tc.arg, tc.part, tc.dir, tc.want)
			}
		})
	}
	if m := c.MemOf(1, PartWhole); m == nil || string(m.Data) != "in" {
		t.Errorf("MemOf(1, PartWhole) = %v, want the first", m)
	}
}

func TestCallFDChange(t *testing.T) {
	tab, err := systable.Native()
	if err != nil {
		t.Fatal(err)
	}
	pipe2, _ := tab.ByName("pipe2")
	c := &Call{Nr: uint32(pipe2.Nr), Args: [6]uint64{0x1000, unix.O_CLOEXEC}, Mem: []Mem{
		{Arg: 0, Part: PartWhole, Dir: Out, Data: []byte{5, 0, 0, 0, 6, 0, 0, 0}},
	}}
	want := systable.FDChange{Op: systable.FDMadePair, From: -1, Pair: [2]int32{5, 6}, Cloexec: true}
	if got := c.FDChange(pipe2); got != want {
		t.Errorf("pipe2: FDChange = %+v, want %+v", got, want)
	}
	c.NoReturn = true
	if got := c.FDChange(pipe2); got.Op != systable.FDKept {
		t.Errorf("a call that did not return: FDChange = %+v, want nothing", got)
	}
}
