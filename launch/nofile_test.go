package launch

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestCommandNofile: the probe reads the open-files limit a child of this
// process starts with: after this process sets its own (which makes the
// Go runtime stop restoring the one it started with), that one.
func TestCommandNofile(t *testing.T) {
	testutil.Require(t, testutil.Ptrace)
	var old unix.Rlimit
	if err := unix.Prlimit(0, unix.RLIMIT_NOFILE, nil, &old); err != nil {
		t.Fatal(err)
	}
	want := unix.Rlimit{Cur: 200, Max: old.Max}
	if err := unix.Prlimit(0, unix.RLIMIT_NOFILE, &want, nil); err != nil {
		t.Fatal(err)
	}
	defer unix.Prlimit(0, unix.RLIMIT_NOFILE, &old, nil)
	got, err := commandNofile()
	if err != nil || got != want {
		t.Errorf("commandNofile() = %+v, %v; want %+v", got, err, want)
	}
}
