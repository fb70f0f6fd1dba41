package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/tracefile"
)

// cli runs the envbisect binary and returns its exit code, stdout and stderr.
func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(testutil.Envbisect(t), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.String(), errb.String()
	}
	if err != nil {
		t.Fatalf("envbisect %v: %v", args, err)
	}
	return 0, out.String(), errb.String()
}

func TestRecordBadInput(t *testing.T) {
	testutil.Require(t, testutil.Ptrace)
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	notExec := filepath.Join(dir, "script.sh") // a script without execute permission: bash says 126
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"missing command", []string{"record", "-o", filepath.Join(dir, "a.envb"), "--", "no-such-command-xyz"}, 127, "no-such-command-xyz: command not found"},
		{"no command", []string{"record", "-o", filepath.Join(dir, "b.envb")}, 2, "no command to record"},
		{"not executable", []string{"record", "-o", filepath.Join(dir, "d.envb"), "--", notExec}, 126, "cannot execute"},
		{"a directory", []string{"record", "-o", filepath.Join(dir, "e.envb"), "--", dir}, 126, "cannot execute"},
		{"killed by a signal", []string{"record", "-q", "-o", filepath.Join(dir, "f.envb"), "--", "sh", "-c", "kill -SEGV $$"}, 128 + 11, "killed by SIGSEGV"},
		{"unwritable output", []string{"record", "-o", filepath.Join(dir, "no", "such", "dir", "t.envb"), "--", "sh", "-c", "touch " + marker}, 1, "no/such/dir/t.envb"},
		{"bad flag", []string{"record", "--frobnicate", "--", "true"}, 2, "unknown flag"},
		{"bad size", []string{"record", "--max-capture", "lots", "--", "true"}, 2, "--max-capture"},
		{"bad cpu", []string{"record", "--cpu", "9999", "--", "true"}, 2, "--cpu"},
		{"unpinned", []string{"record", "-q", "--cpu", "any", "-o", filepath.Join(dir, "c.envb"), "--", "sh", "-c", "exit 3"}, 3, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := cli(t, tc.args...)
			if code != tc.wantCode || !strings.Contains(stderr, tc.wantErr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tc.wantCode, tc.wantErr)
			}
		})
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the command ran although the trace could not be created")
	}
	if _, err := os.Stat(filepath.Join(dir, "a.envb")); err == nil {
		t.Error("a trace was left behind for a command that never started")
	}
}

func TestRecordNoPtracePermission(t *testing.T) {
	testutil.Require(t, testutil.Ptrace)
	wrapper := testutil.BuildC(t, "noptrace.c", false)
	cmd := exec.Command(wrapper, testutil.Envbisect(t), "record", "-o", filepath.Join(t.TempDir(), "t.envb"), "--", "true")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v; want status 1", err)
	}
	if msg := errb.String(); !strings.Contains(msg, "ptrace not permitted") || !strings.Contains(msg, "CAP_SYS_PTRACE") {
		t.Errorf("stderr %q does not say how to get ptrace permission", msg)
	}
}

// TestRecordVerdictFlags: record judges the run as locate will, says
// loudly when it did not pass, and stops a daemon after --alive.
func TestRecordVerdictFlags(t *testing.T) {
	testutil.Require(t, testutil.Ptrace, testutil.Binary("sleep"))
	out := filepath.Join(t.TempDir(), "t.envb")
	start := time.Now()
	code, _, stderr := cli(t, "record", "-o", out, "--alive", "500ms", "--check", "exit 0", "--", "sleep", "30")
	if code != 0 || strings.Contains(stderr, "WARNING") {
		t.Errorf("a daemon alive after 500ms with a passing check: exit %d, stderr %q; want 0, no warning", code, stderr)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the daemon was not stopped after --alive: record took %s", d)
	}
	code, _, stderr = cli(t, "record", "-q", "-o", out, "--check", "exit 4", "--", "true")
	if code != 1 || !strings.Contains(stderr, "did not pass (fail: check exited 4)") {
		t.Errorf("failing check: exit %d, stderr %q; want 1 and the warning even with -q", code, stderr)
	}
	code, _, stderr = cli(t, "record", "-q", "-o", out, "--alive", "2s", "--", "sh", "-c", "exit 3")
	if code != 3 || !strings.Contains(stderr, "exit status 3 before 2s") {
		t.Errorf("a daemon that exits at once: exit %d, stderr %q; want 3 and the warning", code, stderr)
	}
	code, _, stderr = cli(t, "record", "-q", "-o", out, "--timeout", "300ms", "--", "sleep", "30")
	if code != 128+9 || !strings.Contains(stderr, "timed out after 300ms") {
		t.Errorf("timeout: exit %d, stderr %q; want 137 and the warning", code, stderr)
	}
	code, _, stderr = cli(t, "record", "-o", out, "--alive", "2s", "--timeout", "1s", "--", "true")
	if code != exitUsage || !strings.Contains(stderr, "--timeout 1s ends the run before --alive 2s") {
		t.Errorf("contradictory flags: exit %d, stderr %q; want 2 and the reason", code, stderr)
	}
}

func TestRecordExitStatus(t *testing.T) {
	testutil.Require(t, testutil.Ptrace)
	out := filepath.Join(t.TempDir(), "t.envb")
	code, _, stderr := cli(t, "record", "-o", out, "--", "sh", "-c", "exit 7")
	if code != 7 || !strings.Contains(stderr, "did not pass (fail: exit status 7)") {
		t.Errorf("exit %d, stderr %q; want 7 and a warning", code, stderr)
	}
	code, _, _ = cli(t, "record", "-q", "-o", out, "--", "sh", "-c", "kill -TERM $$")
	if code != 128+15 {
		t.Errorf("killed by SIGTERM: exit %d, want 143", code)
	}
	fi, err := os.Stat(out)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("trace mode %v, %v; want 0600", fi.Mode(), err)
	}
}

// TestRecordSIGKILL kills the recorder mid-run: the trace, at its partial
// name beside the output (which it never became), reads back up to its
// last frame, and no traced process survives.
func TestRecordSIGKILL(t *testing.T) {
	testutil.Require(t, testutil.Ptrace, testutil.Binary("pgrep"), testutil.Binary("pkill"))
	out := filepath.Join(t.TempDir(), "t.envb")
	tag := "envbisect-sigkill-test-" + filepath.Base(t.TempDir())
	// --max-content 0: the file objects' content (sh, cat, libc: 2 MiB)
	// would make the file big before the first events frame.
	cmd := exec.Command(testutil.Envbisect(t), "record", "--max-content", "0", "-o", out, "--", "sh", "-c",
		"while :; do cat /etc/hostname >/dev/null; done # "+tag)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until a few frames of events are on disk.
	partial := ""
	deadline := time.Now().Add(20 * time.Second)
	for {
		if p, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".t.envb.*.partial")); len(p) == 1 {
			partial = p[0]
		}
		if fi, err := os.Stat(partial); partial != "" && err == nil && fi.Size() > 20000 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("the trace did not grow")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	// PTRACE_O_EXITKILL: the kernel kills the tracees with the tracer.
	deadline = time.Now().Add(5 * time.Second)
	for {
		left, _ := exec.Command("pgrep", "-f", tag).Output()
		if len(bytes.TrimSpace(left)) == 0 {
			break
		}
		if time.Now().After(deadline) {
			exec.Command("pkill", "-9", "-f", tag).Run()
			t.Fatalf("traced processes survived the recorder: %s", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := os.Lstat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s exists after the recorder was killed (%v): only a finished recording is put in place", out, err)
	}
	tr, err := tracefile.ReadFile(partial)
	if !errors.Is(err, tracefile.ErrTruncated) || tr == nil {
		t.Fatalf("read killed trace: %v; want ErrTruncated with the readable part", err)
	}
	if len(tr.Events) < 100 || tr.End != nil {
		t.Errorf("%d events readable, end %v; want many and no end frame", len(tr.Events), tr.End)
	}
	code, stdout, stderr := cli(t, "show", partial)
	if code != 0 || !strings.Contains(stdout, "/etc/hostname") || !strings.Contains(stderr, "warning") {
		t.Errorf("show of a cut trace: exit %d, stderr %q", code, stderr)
	}
}

// TestRecordInterrupt: SIGINT to envbisect reaches the command, which
// handles it; the trace is complete and envbisect exits with its status.
func TestRecordInterrupt(t *testing.T) {
	testutil.Require(t, testutil.Ptrace)
	out := filepath.Join(t.TempDir(), "t.envb")
	cmd := exec.Command(testutil.Envbisect(t), "record", "-o", out, "--", "sh", "-c",
		`trap 'echo caught; exit 5' INT; echo ready; while :; do sleep 0.05; done`)
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := stdout.Read(buf); err != nil || string(buf) != "ready\n" {
		t.Fatalf("command did not start: %q %v", buf, err)
	}
	cmd.Process.Signal(syscall.SIGINT)
	rest := new(bytes.Buffer)
	rest.ReadFrom(stdout)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 5 || !strings.Contains(rest.String(), "caught") {
		t.Fatalf("exit %v, output %q; want the command's trap to run and exit 5", err, rest)
	}
	tr, err := tracefile.ReadFile(out)
	if err != nil || tr.End == nil || tr.End.ExitCode != 5 || !tr.End.Interrupted {
		t.Fatalf("trace after interrupt: %v, end %+v", err, tr.End)
	}
}

// TestRecordShow records fig79 and reads it back with show and show --json.
func TestRecordShow(t *testing.T) {
	testutil.Require(t, testutil.Ptrace)
	bin := testutil.BuildC(t, "fig79.c", false)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "app.conf")
	os.WriteFile(cfg, []byte("key=value\n"), 0o644)
	out := filepath.Join(dir, "t.envb")
	if code, _, stderr := cli(t, "record", "-o", out, "--", bin, cfg); code != 0 {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	code, text, stderr := cli(t, "show", out)
	if code != 0 {
		t.Fatalf("show: exit %d: %s", code, stderr)
	}
	wantLines := []string{
		`openat(AT_FDCWD, "` + cfg + `", O_RDONLY) = 3`,
		`read(3, "key=value\n", 128) = 10`,
		`exit_group(0) = ?`,
	}
	for _, w := range wantLines {
		if !strings.Contains(text, w) {
			t.Errorf("show output lacks %q:\n%s", w, text)
		}
	}
	code, js, _ := cli(t, "show", "--json", "-e", "trace=read,openat", out)
	if code != 0 {
		t.Fatalf("show --json: exit %d", code)
	}
	var sawRead bool
	for _, line := range strings.Split(strings.TrimSpace(js), "\n") {
		var obj struct {
			Seq     uint64 `json:"seq"`
			Proc    uint32 `json:"proc"`
			Syscall string `json:"syscall"`
			Ret     *int64 `json:"ret"`
			Errno   string `json:"errno"`
			Path    string `json:"path"`
		}
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("bad JSON line %q: %v", line, err)
		}
		if obj.Syscall != "read" && obj.Syscall != "openat" {
			t.Errorf("-e trace=read,openat printed %s", obj.Syscall)
		}
		if obj.Syscall == "read" && obj.Path == cfg {
			sawRead = obj.Ret != nil && *obj.Ret == 10 && obj.Proc == 1 && obj.Seq > 0 && obj.Errno == ""
		}
	}
	if !sawRead {
		t.Errorf("no JSON read of %s returning 10:\n%s", cfg, js)
	}
}

// TestRecordDiskFull records into a 64 KiB tmpfs (in a private mount
// namespace): the command still runs to its end, and envbisect says the
// trace is incomplete because the disk is full.
func TestRecordDiskFull(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Binary("unshare"))
	dir := t.TempDir()
	script := `mount -t tmpfs -o size=64k tmpfs "$1" && "$2" record -o "$1/t.envb" -- sh -c 'head -c 4000000 /dev/urandom >/dev/null; echo done'`
	cmd := exec.Command("unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", dir, testutil.Envbisect(t))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit %v; want 1\nstderr: %s", err, errb.String())
	}
	if out.String() != "done\n" {
		t.Errorf("the command's output %q: it did not run to its end", out.String())
	}
	if msg := errb.String(); !strings.Contains(msg, "incomplete") || !strings.Contains(msg, "disk full") {
		t.Errorf("stderr %q does not say the trace is incomplete because the disk is full", msg)
	}
}

// The content cache's flags: --content-cache DIR fills DIR and a second
// recording reads it back into an equal trace of the file; by default the
// cache is under $XDG_CACHE_HOME, which --no-content-cache leaves alone;
// both flags at once are a usage error.
func TestRecordContentCacheFlags(t *testing.T) {
	testutil.Require(t, testutil.Ptrace, testutil.Binary("cat"))
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	want := bytes.Repeat([]byte("content\n"), 5000)
	if err := os.WriteFile(data, want, 0o644); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, "cache")
	for i := range 2 {
		out := filepath.Join(dir, "t.envb")
		if code, _, stderr := cli(t, "record", "-q", "--content-cache", cache, "-o", out, "--", "cat", data); code != 0 {
			t.Fatalf("record %d: exit %d: %s", i, code, stderr)
		}
		tr, err := tracefile.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.VerifyContent(); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if ents, _ := os.ReadDir(cache); len(ents) < 2 {
			t.Fatalf("record %d: --content-cache %s holds %d entries", i, cache, len(ents))
		}
		var got []byte
		for _, f := range tr.Files {
			if f.Path == data {
				rc, err := tr.OpenContent(&f)
				if err != nil {
					t.Fatal(err)
				}
				got, _ = io.ReadAll(rc)
				rc.Close()
			}
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("record %d: the trace holds %d bytes of %s, want %d", i, len(got), data, len(want))
		}
	}

	xdg := filepath.Join(dir, "xdg")
	t.Setenv("XDG_CACHE_HOME", xdg)
	if code, _, stderr := cli(t, "record", "-q", "--no-content-cache", "-o", filepath.Join(dir, "n.envb"), "--", "cat", data); code != 0 {
		t.Fatalf("record --no-content-cache: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(xdg); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("record --no-content-cache touched $XDG_CACHE_HOME (%v)", err)
	}
	if code, _, stderr := cli(t, "record", "-q", "-o", filepath.Join(dir, "d.envb"), "--", "cat", data); code != 0 {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	if ents, _ := os.ReadDir(filepath.Join(xdg, "envbisect", "content")); len(ents) < 2 {
		t.Errorf("record by default keeps %d cache entries in $XDG_CACHE_HOME/envbisect/content", len(ents))
	}
	if code, _, stderr := cli(t, "record", "--no-content-cache", "--content-cache", cache, "--", "true"); code != 2 || !strings.Contains(stderr, "--no-content-cache") {
		t.Errorf("both cache flags: exit %d, stderr %q; want a usage error", code, stderr)
	}
}
