package envobj

import "testing"

// ModeString prints modes as ls does, special bits in the execute
// columns (Go's fs.FileMode prints "dtrwxrwxrwx" for /tmp).
func TestModeString(t *testing.T) {
	for _, c := range []struct {
		t    Type
		mode uint32
		want string
	}{
		{TypeDir, 0o1777, "drwxrwxrwt"},
		{TypeDir, 0o755, "drwxr-xr-x"},
		{TypeFile, 0o4755, "-rwsr-xr-x"},
		{TypeFile, 0o2644, "-rw-r-Sr--"},
		{TypeDir, 0o1700, "drwx-----T"},
		{TypeSymlink, 0o777, "lrwxrwxrwx"},
		{TypeFile, 0o600, "-rw-------"},
	} {
		if got := ModeString(c.t, c.mode); got != c.want {
			t.Errorf("ModeString(%s, %04o) = %q, want %q", c.t, c.mode, got, c.want)
		}
	}
}

// TestRootNotMaterializable: the root directory of the run's view is
// never put in place (its modification time differs between any two
// containers): listed as unplaced, not a candidate whose run fails.
func TestRootNotMaterializable(t *testing.T) {
	o := Object{Path: "/", Good: State{Exists: true, Type: TypeDir}, Here: State{Exists: true, Type: TypeDir}, Differs: Aspects{AspectMtime}}
	if ok, why := o.Materializable(); ok || why == "" {
		t.Errorf("Materializable() = %v, %q; want false with a reason", ok, why)
	}
}
