package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestRecordOutputDash: -o - is refused as a usage error (exit 2) before
// the command runs, instead of writing a file named "-".
func TestRecordOutputDash(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(testutil.Envbisect(t), "record", "-o", "-", "--", "touch", "ran")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitUsage {
		t.Fatalf("envbisect record -o -: %v (stderr %q); want exit %d", err, stderr.String(), exitUsage)
	}
	if !strings.Contains(stderr.String(), "-o -: a trace cannot go to standard output") || stdout.Len() != 0 {
		t.Errorf("stdout %q, stderr %q; want the refusal on stderr alone", stdout.String(), stderr.String())
	}
	for _, name := range []string{"-", "ran"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s exists: record went on after refusing -o -", name)
		}
	}
}
