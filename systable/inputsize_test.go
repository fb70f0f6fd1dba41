package systable

import "testing"

// TestSameInputSize: write's count decides; a read's (an out-buffer's
// capacity) and an fd do not.
func TestSameInputSize(t *testing.T) {
	tab, err := New("amd64")
	if err != nil {
		t.Fatal(err)
	}
	row := func(name string) *Syscall {
		s, ok := tab.ByName(name)
		if !ok {
			t.Fatalf("no row %s", name)
		}
		return s
	}
	for _, c := range []struct {
		name string
		a, b [6]uint64
		want bool
	}{
		{"write", [6]uint64{3, 0x1000, 5}, [6]uint64{3, 0x2000, 5}, true},
		{"write", [6]uint64{3, 0x1000, 5}, [6]uint64{3, 0x1000, 6}, false},
		{"write", [6]uint64{3, 0x1000, 5}, [6]uint64{4, 0x1000, 5}, true},
		{"sendto", [6]uint64{3, 0x1000, 10}, [6]uint64{3, 0x1000, 11}, false},
		{"read", [6]uint64{3, 0x1000, 4096}, [6]uint64{3, 0x1000, 8192}, true},
	} {
		if got := row(c.name).SameInputSize(c.a, c.b); got != c.want {
			t.Errorf("%s %v vs %v: SameInputSize = %v, want %v", c.name, c.a, c.b, got, c.want)
		}
	}
}
