package envobj

import (
	"strings"
	"testing"
)

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

// TestStartCapsWords: a capability set that differs is said by its
// capabilities' names, in the cause and in its fix, never in hex.
func TestStartCapsWords(t *testing.T) {
	s := func(v string) *string { return &v }
	v := StartValue{Kind: "caps", Name: "bounding", Good: s("00000000a80425fb"), Here: s("00000000a80425fa")}
	if got, want := v.Says(), "CAP_CHOWN: in the good run's bounding set, not here"; got != want {
		t.Errorf("Says %q, want %q", got, want)
	}
	v = StartValue{Kind: "caps", Name: "effective", Good: s("0000000000000000"), Here: s("0000000000204000")}
	if got, want := v.Says(), "CAP_IPC_LOCK and CAP_SYS_ADMIN: in the effective set here, not in the good run's"; got != want {
		t.Errorf("Says %q, want %q", got, want)
	}
	if f := v.Fix(); len(f) != 1 || !strings.Contains(f[0].Text, "CAP_SYS_ADMIN") {
		t.Errorf("Fix %+v, want the capability named", f)
	}
}
