package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/tracefile"
)

// TestRecordRefusesPlantedLink: nobody plants a symbolic link in a shared
// sticky directory, pointing at a file of root's; root's record -o through
// the link fails with a clear error and leaves the file's bytes and mode as
// they were.
func TestRecordRefusesPlantedLink(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace)
	dir := t.TempDir()
	shared := filepath.Join(dir, "shared")
	if err := os.Mkdir(shared, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o1777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Dir(dir), dir} { // t.TempDir's are 0700
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	precious := filepath.Join(dir, "precious.conf")
	if err := os.WriteFile(precious, []byte("root's settings\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(shared, "trace.envb")
	ln := exec.Command("ln", "-s", precious, link)
	ln.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	if out, err := ln.CombinedOutput(); err != nil {
		t.Fatalf("ln -s as nobody: %v: %s", err, out)
	}
	code, _, errs := runCLI("record", "-q", "-o", link, "--", "true")
	if code != exitError || !strings.Contains(errs, link+" is a symbolic link") {
		t.Errorf("record through the link: exit %d, stderr %q; want %d and an error naming the link", code, errs, exitError)
	}
	b, err := os.ReadFile(precious)
	fi, _ := os.Stat(precious)
	if err != nil || string(b) != "root's settings\n" || fi.Mode().Perm() != 0o644 {
		t.Errorf("the link's target now holds %q, mode %v (%v)", b, fi.Mode().Perm(), err)
	}
	if left, _ := filepath.Glob(filepath.Join(shared, ".*.partial")); len(left) > 0 {
		t.Errorf("partial files left behind: %v", left)
	}
}

// TestRecordReplacesOnlyTraces: an existing file that is not a trace is
// refused (and kept) unless --force; an earlier trace is replaced; a
// command that is not found leaves the earlier trace as it was.
func TestRecordReplacesOnlyTraces(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace)
	dir := t.TempDir()
	out := filepath.Join(dir, "out.envb")
	if err := os.WriteFile(out, []byte("a report I wrote\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI("record", "-q", "-o", out, "--", "true")
	if code != exitError || !strings.Contains(errs, "is not an envbisect trace") || !strings.Contains(errs, "--force") {
		t.Errorf("record over a text file: exit %d, stderr %q; want %d, naming --force", code, errs, exitError)
	}
	if b, _ := os.ReadFile(out); string(b) != "a report I wrote\n" {
		t.Fatalf("the text file now holds %q", b)
	}
	if code, _, errs := runCLI("record", "-q", "--force", "-o", out, "--", "echo", "first"); code != 0 {
		t.Fatalf("record --force: exit %d: %s", code, errs)
	}
	first, err := tracefile.ReadFile(out)
	if err != nil || strings.Join(first.Header.Command, " ") != "echo first" {
		t.Fatalf("after --force: %v, command %v", err, first.Header.Command)
	}
	if code, _, errs := runCLI("record", "-q", "-o", out, "--", "echo", "second"); code != 0 {
		t.Fatalf("record over a trace: exit %d: %s", code, errs)
	}
	if code, _, _ := runCLI("record", "-q", "-o", out, "--", "/no/such/program"); code != exitNotFound {
		t.Errorf("record of a missing program: exit %d, want %d", code, exitNotFound)
	}
	second, err := tracefile.ReadFile(out)
	if err != nil || strings.Join(second.Header.Command, " ") != "echo second" {
		t.Errorf("the trace of 'echo second' was not kept whole after a failed record: %v, command %v", err, second.Header.Command)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.partial")); len(left) > 0 {
		t.Errorf("partial files left behind: %v", left)
	}
}
