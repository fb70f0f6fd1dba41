package main

import (
	"encoding/base64"
	"encoding/json"
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

// TestShowJSONKeepsNonUTF8Path records cat of a file whose name is not
// valid UTF-8 (Latin-1 "é"): show --json gives the name's exact bytes in
// path_base64 and in the path argument's base64 buffer, so a program
// reading the JSON can open the very file. (It also checks that record
// hands cat the name unchanged: the helper's configuration was JSON and
// turned the byte into U+FFFD, so cat looked for another file.)
func TestShowJSONKeepsNonUTF8Path(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace)
	dir := t.TempDir()
	file := filepath.Join(dir, "caf\xe9.conf")
	if err := os.WriteFile(file, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := filepath.Join(dir, "t.envb")
	if code, _, errs := runCLI("record", "-q", "-o", tr, "--", "cat", file); code != 0 {
		t.Fatalf("record: exit %d: %s", code, errs)
	}
	code, out, errs := runCLI("show", "--json", "-e", "trace=openat", tr)
	if code != 0 {
		t.Fatalf("show --json: exit %d: %s", code, errs)
	}
	found := false
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var c struct {
			Event      string `json:"event"`
			Path       string `json:"path"`
			PathBase64 []byte `json:"path_base64"`
			Args       []json.RawMessage
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("show --json line %q: %v", line, err)
		}
		if c.Event != "call" || !strings.HasPrefix(c.Path, dir+"/caf") {
			continue
		}
		found = true
		if string(c.PathBase64) != file {
			t.Errorf("path_base64 = %q, want the exact bytes %q (path %q)", c.PathBase64, file, c.Path)
		}
		var arg struct {
			Data     string `json:"data"`
			Encoding string `json:"encoding"`
		}
		if err := json.Unmarshal(c.Args[1], &arg); err != nil || arg.Encoding != "base64" {
			t.Fatalf("openat's path argument %s: want a base64 buffer (%v)", c.Args[1], err)
		}
		if b, err := base64.StdEncoding.DecodeString(arg.Data); err != nil || string(b) != file {
			t.Errorf("openat's path argument decodes to %q (%v), want %q", b, err, file)
		}
	}
	if !found {
		t.Fatalf("no openat of %q in show --json:\n%s", file, out)
	}
}
