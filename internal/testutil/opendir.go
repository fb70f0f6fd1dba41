package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

// OpenDir returns a temporary directory that any user (nobody, for a
// test that runs envbisect without privileges) may write to and read,
// with its parents made traversable.
func OpenDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	// The parents t.TempDir makes are 0700: another user must reach dir.
	for p := filepath.Dir(dir); p != os.TempDir() && p != "/"; p = filepath.Dir(p) {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// CopyExecutable copies the executable src to dst, mode 0755: a copy of
// envbisect that another user may run (the built one lies under the
// test binary's private directory).
func CopyExecutable(t testing.TB, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
