package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestTraceTextPrintedEscaped records cat of a file whose name holds an
// escape sequence, a newline and a bidirectional override, then reads the
// trace with deps, diff and locate: every line they print shows the name
// escaped, so a crafted path can neither forge a report line nor drive the
// terminal.
func TestTraceTextPrintedEscaped(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace)
	dir := t.TempDir()
	name := "a\x1b[31mRED\nforged: located\u202eexe.txt"
	file := filepath.Join(dir, name)
	if err := os.WriteFile(file, []byte("hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good, bad := filepath.Join(dir, "good.envb"), filepath.Join(dir, "bad.envb")
	if code, _, errs := runCLI("record", "-q", "-o", good, "--", "cat", file); code != 0 {
		t.Fatalf("record good: exit %d: %s", code, errs)
	}
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI("record", "-q", "-o", bad, "--", "cat", file); code != 1 {
		t.Fatalf("record bad: exit %d, want cat's 1: %s", code, errs)
	}
	// diff quotes call arguments as show does (every non-ASCII byte as
	// \xNN); the other lines escape only what is unsafe (\u202e).
	escaped := `a\x1b[31mRED\nforged: located`
	outputs := map[string]string{}
	_, outputs["deps"], _ = runCLI("deps", good)
	_, outputs["diff"], _ = runCLI("diff", good, bad)
	_, outputs["locate"], _ = runCLI("locate", good, "--", "cat", file)
	for cmd, out := range outputs {
		if !strings.Contains(out, escaped) {
			t.Errorf("%s never prints the name escaped (%q); output:\n%s", cmd, escaped, out)
		}
		for _, bad := range []string{"\x1b", "\u202e", "\nforged"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s prints %q from the trace raw; output:\n%s", cmd, bad, out)
			}
		}
	}
}
