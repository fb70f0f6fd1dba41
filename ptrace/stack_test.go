package ptrace

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestReadInitialStack reads this test process's own initial stack (its
// start is field 28 of /proc/self/stat) and finds the argv it was
// started with.
func TestReadInitialStack(t *testing.T) {
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Fatal(err)
	}
	rest := string(stat[strings.LastIndexByte(string(stat), ')')+2:])
	fields := strings.Fields(rest) // field 3 onwards
	sp, err := strconv.ParseUint(fields[28-3], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	img, auxv, err := readInitialStack(memReader{pid: os.Getpid()}, sp)
	if err != nil {
		t.Fatalf("readInitialStack: %v", err)
	}
	if got, want := splitStrings(img.argv), os.Args; strings.Join(got, "\x00") != strings.Join(want, "\x00") {
		t.Errorf("argv = %q, want %q", got, want)
	}
	if len(img.path) == 0 || len(auxv) < 10 {
		t.Errorf("path %q, %d auxv entries", img.path, len(auxv))
	}
	if env := splitStrings(img.envp); len(env) == 0 || !strings.Contains(strings.Join(env, "\n"), "PATH=") {
		t.Errorf("envp = %q", env)
	}
}
