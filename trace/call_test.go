package trace

import "testing"

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
