package testutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

// ConfigThenLoop makes the memory tests' command in a temporary
// directory dir: it reads its configuration conf (mode=good, as written
// here) and then makes 3×iterations calls (cloop: open, read and close of
// one small file). argv runs it; writing mode=bad to conf makes it fail.
func ConfigThenLoop(t testing.TB, iterations int) (dir, conf string, argv []string) {
	t.Helper()
	cloop := BuildC(t, "cloop.c", false)
	dir = t.TempDir()
	conf, small := filepath.Join(dir, "app.conf"), filepath.Join(dir, "small")
	WriteText(t, conf, "mode=good\n")
	WriteText(t, small, "hi\n")
	return dir, conf, []string{"sh", "-c", "grep -q mode=good " + conf + " && " + cloop + " " + strconv.Itoa(iterations) + " " + small}
}

// WriteText writes s to the file p, failing t if it cannot.
func WriteText(t testing.TB, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// PeakRSS is the peak resident set of the ended cmd and of what it
// waited for, in bytes (its rusage's ru_maxrss).
func PeakRSS(cmd *exec.Cmd) int64 {
	return cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
}
