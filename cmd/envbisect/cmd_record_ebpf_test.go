package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

func TestRecordEBPFBadFlags(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "t.envb")
	cases := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"unknown backend", []string{"record", "--backend", "dtrace", "-o", out, "--", "true"}, `--backend "dtrace"`},
		{"attach without ebpf", []string{"record", "--attach", "--container", "x", "-o", out}, "--attach needs --backend ebpf"},
		{"attach without container", []string{"record", "--backend", "ebpf", "--attach", "-o", out}, "give --container"},
		{"attach with a command", []string{"record", "--backend", "ebpf", "--attach", "--container", "x", "-o", out, "--", "true"}, "give no command"},
		{"duration without attach", []string{"record", "--backend", "ebpf", "--duration", "3s", "-o", out, "--", "true"}, "--duration bounds an --attach"},
		{"ring not a power of two", []string{"record", "--backend", "ebpf", "--ring-size", "5000", "-o", out, "--", "true"}, "--ring-size"},
		{"no-vdso", []string{"record", "--backend", "ebpf", "--no-vdso", "-o", out, "--", "true"}, "--no-vdso needs the ptrace backend"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := cli(t, tc.args...)
			if code != exitUsage || !strings.Contains(stderr, tc.wantErr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, tc.wantErr)
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a trace was written for bad flags")
	}
}

// TestRecordEBPFUnprivileged: without root (or CAP_BPF and CAP_PERFMON)
// the eBPF backend says what it needs, and nothing runs.
func TestRecordEBPFUnprivileged(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("setpriv"))
	dir, err := os.MkdirTemp("", "envbisect-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	b, err := os.ReadFile(testutil.Envbisect(t))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "envbisect"), b, 0o755)
	os.Chmod(dir, 0o777)
	cmd := exec.Command("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--inh-caps=-all",
		"./envbisect", "record", "--backend", "ebpf", "-o", "t.envb", "--", "touch", "ran")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitError {
		t.Fatalf("as nobody: %v, want exit status %d\n%s", err, exitError, stderr.String())
	}
	if !strings.Contains(stderr.String(), "needs root, or CAP_BPF and CAP_PERFMON") {
		t.Errorf("as nobody, stderr %q does not say what the eBPF backend needs", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the command ran although the probe could not load")
	}
	if _, err := os.Stat(filepath.Join(dir, "t.envb")); err == nil {
		t.Error("a trace was left behind")
	}
}

// TestLocateEBPFTrace: a trace recorded with the eBPF backend locates
// the culprit as a ptrace one does.
func TestLocateEBPFTrace(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF, testutil.Ptrace)
	fig79 := testutil.BuildC(t, "fig79.c", false)
	dir := t.TempDir()
	conf := filepath.Join(dir, "config.txt")
	os.WriteFile(conf, []byte("key=value\n"), 0o644)
	tr := filepath.Join(dir, "good.envb")
	if code, _, stderr := cli(t, "record", "-q", "--backend", "ebpf", "-o", tr, "--", fig79, conf); code != 0 {
		t.Fatalf("record --backend ebpf: exit %d\n%s", code, stderr)
	}
	code, stdout, _ := cli(t, "show", tr)
	if code != 0 || !strings.Contains(stdout, ", ebpf,") || !strings.Contains(stdout, "# lost: nothing") {
		t.Fatalf("show of an eBPF trace: exit %d, want the backend and its losses in the header and end:\n%s", code, stdout)
	}
	os.WriteFile(conf, []byte("key value\n"), 0o644)
	code, stdout, stderr := cli(t, "locate", "-q", "--json", tr, "--", fig79, conf)
	var rep struct {
		Status  string `json:"status"`
		Culprit struct {
			Syscall string `json:"syscall"`
			Path    string `json:"path"`
		} `json:"culprit"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("locate --json: exit %d, %v\n%s\n%s", code, err, stdout, stderr)
	}
	if code != 0 || rep.Status != "located" || rep.Culprit.Syscall != "read" || rep.Culprit.Path != conf {
		t.Errorf("locate with an eBPF trace: exit %d, status %s, culprit %s %s; want the read of %s\n%s",
			code, rep.Status, rep.Culprit.Syscall, rep.Culprit.Path, conf, stderr)
	}
}

// TestEBPFLossesShown: a recording whose ring buffer overflowed says so
// when it ends, in show, and in locate.
func TestEBPFLossesShown(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF, testutil.Ptrace, testutil.Binary("dd"))
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.envb")
	argv := []string{"dd", "if=/dev/zero", "of=" + filepath.Join(dir, "zeros"), "bs=65536", "count=32", "status=none"}
	code, _, stderr := cli(t, append([]string{"record", "-q", "--backend", "ebpf", "--ring-size", "4K", "-o", tr, "--"}, argv...)...)
	if code != 0 || !strings.Contains(stderr, "WARNING: the trace is incomplete") {
		t.Fatalf("record with a 4K ring: exit %d, want 0 and a warning of losses:\n%s", code, stderr)
	}
	if code, stdout, _ := cli(t, "show", tr); code != 0 || !strings.Contains(stdout, "# lost: ") || !strings.Contains(stdout, "incomplete") {
		t.Errorf("show: exit %d, want the losses and the incomplete calls marked:\n%s", code, lastLines(stdout, 5))
	}
	code, _, stderr = cli(t, append([]string{"locate", "-q", tr, "--"}, argv...)...)
	if !strings.Contains(stderr, "is incomplete") || !strings.Contains(stderr, "those calls execute instead of being replayed") {
		t.Errorf("locate on an incomplete trace (exit %d) does not say it:\n%s", code, stderr)
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TestRecordEBPFAttachPID observes a running process with --pid and
// --attach: the calls of the processes it starts while observed are in
// the trace, which is an observation trace locate refuses.
func TestRecordEBPFAttachPID(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF)
	dir := t.TempDir()
	conf := filepath.Join(dir, "watched.conf")
	os.WriteFile(conf, []byte("x=1\n"), 0o644)
	loop := exec.Command("sh", "-c", "while :; do cat "+conf+" >/dev/null; sleep 0.1; done")
	if err := loop.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { loop.Process.Kill(); loop.Wait() })
	tr := filepath.Join(dir, "obs.envb")
	code, _, stderr := cli(t, "record", "--backend", "ebpf", "--pid", strconv.Itoa(loop.Process.Pid), "--attach", "--duration", "1s", "-o", tr)
	if code != 0 {
		t.Fatalf("record --pid --attach: exit %d\n%s", code, stderr)
	}
	code, stdout, _ := cli(t, "show", tr)
	if !strings.Contains(stdout, "# command: none: an observation") || !strings.Contains(stdout, "# ran in: pid "+strconv.Itoa(loop.Process.Pid)) {
		t.Errorf("show does not say the trace is an observation of pid %d:\n%s", loop.Process.Pid, stdout[:min(len(stdout), 600)])
	}
	if code != 0 || strings.Count(stdout, `openat(AT_FDCWD, "`+conf+`"`) < 3 {
		t.Errorf("show: exit %d, want several opens of %s in 1 s of observation:\n%s", code, conf, lastLines(stdout, 20))
	}
	// The shell was running before the observation began: its own calls
	// (it waits for each cat and sleep) are recorded too.
	if !strings.Contains(stdout, "wait4(-1, ") {
		t.Errorf("show: none of the observed shell's own calls (wait4):\n%s", lastLines(stdout, 20))
	}
	code, _, stderr = cli(t, "locate", tr, "--", "cat", conf)
	if code != exitError || !strings.Contains(stderr, "observation trace") {
		t.Errorf("locate of an observation trace: exit %d, want %d and why:\n%s", code, exitError, stderr)
	}
}

// TestIncompleteCallNotReplayed: a call whose recorded data is incomplete
// is never replayed, whatever is asked. The trace is a real eBPF
// recording of fig79 in which the read of its config is then marked as
// having lost a chunk (which of a real overflow's calls lose data is up
// to timing): replay executes that read, and locate, with the config
// broken here, cannot blame it and says why.
func TestIncompleteCallNotReplayed(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF, testutil.Ptrace)
	fig79 := testutil.BuildC(t, "fig79.c", false)
	dir := t.TempDir()
	conf := filepath.Join(dir, "config.txt")
	os.WriteFile(conf, []byte("key=value\n"), 0o644)
	whole := filepath.Join(dir, "whole.envb")
	if code, _, stderr := cli(t, "record", "-q", "--backend", "ebpf", "-o", whole, "--", fig79, conf); code != 0 {
		t.Fatalf("record: exit %d\n%s", code, stderr)
	}
	tr, err := tracefile.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	marked := 0
	for _, ev := range tr.Events {
		if c := ev.Call; c != nil && c.Path == conf && c.Nr == unix.SYS_READ && c.Ret > 0 {
			c.Mem[0].Flag |= trace.Lost
			marked++
		}
	}
	if marked != 1 {
		t.Fatalf("%d reads of %s in the trace, want 1", marked, conf)
	}
	tr.End.Lost.Chunks, tr.End.Lost.Incomplete = 1, 1
	doctored := filepath.Join(dir, "incomplete.envb")
	w, err := tracefile.Create(doctored, &tr.Header)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteStart(tr.Start); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteEvents(tr.Events); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(tr.End); err != nil {
		t.Fatal(err)
	}

	os.WriteFile(conf, []byte("key value\n"), 0o644)
	code, stdout, stderr := cli(t, "replay", "--prefix", "all", doctored, "--", fig79, conf)
	if !strings.Contains(stdout, "execute (data lost)  read "+conf) || !strings.Contains(stdout, "fail") {
		t.Errorf("replay --prefix all: exit %d, want the read of %s executed for lost data, and the run failing:\n%s\n%s",
			code, conf, stdout, stderr)
	}
	code, stdout, _ = cli(t, "locate", doctored, "--", fig79, conf)
	if code != 3 || !strings.Contains(stdout, "The trace is incomplete") {
		t.Errorf("locate: exit %d, want 3 (not located) and the note on lost data:\n%s", code, stdout)
	}
}
