package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/reportschema"
	"github.com/envbisect/envbisect/internal/testutil"
)

func TestLocateUsage(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"locate"}, "give the trace, then the command after --"},
		{[]string{"locate", "t.envb"}, "give the trace, then the command after --"},
		{[]string{"locate", "--repeat", "0", "t.envb", "--", "true"}, "--repeat 0"},
		{[]string{"locate", "--alive", "2s", "--timeout", "1s", "t.envb", "--", "true"}, "ends the run before --alive"},
		{[]string{"locate", "--format", "html", "t.envb", "--", "true"}, `--format "html": give text, json or markdown`},
		{[]string{"locate", "--json", "--format", "markdown", "t.envb", "--", "true"}, "--json and --format markdown: give one"},
		{[]string{"replay", "t.envb", "--", "true"}, "--prefix is required"},
		{[]string{"replay", "--prefix", "x", "t.envb", "--", "true"}, `--prefix "x"`},
	}
	for _, c := range cases {
		code, _, stderr := cli(t, c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, stderr, exitUsage, c.want)
		}
	}
	code, _, stderr := cli(t, "locate", filepath.Join(t.TempDir(), "none.envb"), "--", "true")
	if code != exitError || !strings.Contains(stderr, "none.envb") {
		t.Errorf("missing trace: exit %d, stderr %q; want 1 naming the file", code, stderr)
	}
}

// TestLocateInterrupted: Ctrl-C in the middle of a run stops the run and
// the search, in the object search (the default: an untraced run in its
// sandbox) and in the call-level search: exit 1, "interrupted: no
// culprit" on stderr, nothing on stdout, no --report file, and nothing
// left behind: no process of the command or of envbisect's process
// group (the test binary's TestMain checks its own children too), no
// scratch directory of the tracer.
func TestLocateInterrupted(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Binary("sleep"), testutil.Binary("pgrep"), testutil.Binary("pkill"))
	bin := testutil.Envbisect(t)
	dir := t.TempDir()
	tr := filepath.Join(dir, "s.envb")
	if out, err := exec.Command(bin, "record", "-q", "-o", tr, "--alive", "300ms", "--", "sleep", "100").CombinedOutput(); err != nil {
		t.Fatalf("record: %v\n%s", err, out)
	}
	scratchBefore, _ := filepath.Glob(filepath.Join(os.TempDir(), "envbisect-scratch-*"))
	for _, c := range []struct{ name, flag string }{{"objects", "--materialize=true"}, {"call-level", "--materialize=false"}} {
		report := filepath.Join(dir, c.name+".json")
		code, stdout, stderr := startInterrupted(t, "^sleep 100$", "locate", c.flag, "--report", report, tr, "--alive", "60s", "--", "sleep", "100")
		if code != exitError || !strings.Contains(stderr, "envbisect: interrupted: no culprit") {
			t.Errorf("%s: exit %d, stderr %q; want 1 and 'interrupted: no culprit'", c.name, code, stderr)
		}
		if stdout != "" {
			t.Errorf("%s: an interrupted locate printed %q", c.name, stdout)
		}
		if _, err := os.Stat(report); err == nil {
			t.Errorf("%s: an interrupted locate wrote --report %s", c.name, report)
		}
	}
	scratchAfter, _ := filepath.Glob(filepath.Join(os.TempDir(), "envbisect-scratch-*"))
	if len(scratchAfter) > len(scratchBefore) {
		t.Errorf("scratch directories left behind: %v (before: %v)", scratchAfter, scratchBefore)
	}
}

// TestLocateKilled: when envbisect itself is killed mid-run, the kernel
// kills the traced command with it (PTRACE_O_EXITKILL): no daemon
// outlives a killed locate.
func TestLocateKilled(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Binary("sleep"), testutil.Binary("pgrep"))
	bin := testutil.Envbisect(t)
	tr := filepath.Join(t.TempDir(), "s.envb")
	if out, err := exec.Command(bin, "record", "-q", "-o", tr, "--alive", "300ms", "--", "sleep", "101").CombinedOutput(); err != nil {
		t.Fatalf("record: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "locate", "-q", tr, "--alive", "60s", "--", "sleep", "101")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if out, _ := exec.Command("pgrep", "-f", "^sleep 101$").Output(); len(out) != 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("the command never started under locate")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	for deadline = time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		out, _ := exec.Command("pgrep", "-f", "^sleep 101$").Output()
		if len(out) == 0 {
			return
		}
		if time.Now().After(deadline) {
			exec.Command("pkill", "-KILL", "-f", "^sleep 101$").Run()
			t.Fatalf("the traced command outlived a killed locate: %s", out)
		}
	}
}

// TestLocateUnprivileged: record and locate work for a user without any
// privilege, on the user's own processes (ptrace of one's own children,
// seccomp with no_new_privs).
func TestLocateUnprivileged(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp, testutil.Binary("setpriv"))
	fig79 := testutil.BuildC(t, "fig79.c", false)
	dir, err := os.MkdirTemp("", "envbisect-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for src, dst := range map[string]string{testutil.Envbisect(t): "envbisect", fig79: "fig79"} {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, dst), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	script := `set -e
printf 'key=value\n' > config.txt
./envbisect record -q -o good.envb -- ./fig79 config.txt >/dev/null
printf 'key value\n' > config.txt
./envbisect locate -q --json good.envb -- ./fig79 config.txt`
	cmd := exec.Command("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--inh-caps=-all", "sh", "-c", script)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("as nobody: %v\n%s", err, stderr.String())
	}
	var rep struct {
		Status  string `json:"status"`
		Culprit struct {
			Syscall string `json:"syscall"`
			Path    string `json:"path"`
		} `json:"culprit"`
	}
	reportschema.Check(t, "locate --json as nobody", stdout.Bytes())
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("locate --json as nobody: %v\n%s", err, stdout.String())
	}
	// The open of config.txt: replayed, it hands out the good file the
	// trace keeps (filled by a tracer that is not root).
	if rep.Status != "located" || rep.Culprit.Syscall != "openat" || rep.Culprit.Path != filepath.Join(dir, "config.txt") {
		t.Errorf("as nobody: status %s, culprit %s %s; want the open of %s/config.txt", rep.Status, rep.Culprit.Syscall, rep.Culprit.Path, dir)
	}
}

func TestWorkerArgs(t *testing.T) {
	got := strings.Join(workerArgs([]string{"locate", "--jobs", "2", "t.envb", "--", "sh", "-c", "x --"}, 1, workerRequestFD), " ")
	if want := "locate --jobs 2 t.envb --jobs=1 --worker -q --cpu=1 -- sh -c x --"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// --keep-fds 3,4: the worker's pipes come after the kept descriptors.
	got = strings.Join(workerArgs([]string{"locate", "--keep-fds", "3,4", "--jobs", "2", "t.envb", "--", "sh"}, 1, 5), " ")
	if want := "locate --keep-fds 3,4 --jobs 2 t.envb --jobs=1 --worker -q --cpu=1 --worker-fd=5 -- sh"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
