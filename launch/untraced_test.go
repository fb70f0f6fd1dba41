package launch

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/trace"
)

// oneContent is the Contents of one string.
type oneContent string

func (c oneContent) hash() trace.Hash { return sha256.Sum256([]byte(c)) }

func (c oneContent) OpenHash(h trace.Hash) (io.ReadCloser, error) {
	if h != c.hash() {
		return nil, errors.New("no such content")
	}
	return io.NopCloser(strings.NewReader(string(c))), nil
}

// runShell runs script with sh -c through RunUntraced with cfg's other
// settings and returns its result and output.
func runShell(t *testing.T, cfg Config, script string) (*trace.RunResult, string, error) {
	t.Helper()
	return runShellWith(t, cfg, script, true)
}

// runShellWith is runShell with address randomisation left on (aslr)
// or turned off by the helper.
func runShellWith(t *testing.T, cfg Config, script string, aslr bool) (*trace.RunResult, string, error) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cfg.Path, cfg.Argv, cfg.Env, cfg.CPU, cfg.ASLR = "/bin/sh", []string{"sh", "-c", script}, []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}, -1, aslr
	cfg.Stdout = w
	outc := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(r)
		outc <- string(b)
	}()
	res, err := RunUntraced(&cfg)
	w.Close()
	return res, <-outc, err
}

// TestRunUntraced: the command runs untraced (TracerPid 0, no seccomp
// filter), with descriptors 0, 1 and 2 only (not the objects' bundle, not
// one this process holds without close-on-exec), in its sandbox with an
// object in place, and its status comes back; nothing of the sandbox is
// left on the host. The shell's descriptors are listed from a subshell
// whose output is redirected: a pipeline's pipe is the shell's own fds 3
// and 4 until it has started both sides, and a redirection the shell
// makes itself saves its stdout as fd 10; ls could list either.
func TestRunUntraced(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.File("/bin/sh"), testutil.Binary("ls"))
	inheritable(t, 240)
	conf := fmt.Sprintf("/etc/envbisect-launch-test-%d.conf", os.Getpid())
	good := oneContent("good\n")
	ops := []envobj.Op{{Kind: envobj.OpWrite, Path: conf, Mode: 0o644, Content: good.hash()}}
	bundle, err := sandbox.NewBundle(sandbox.ContentHashes(ops), good)
	if err != nil {
		t.Fatal(err)
	}
	defer bundle.Close()
	res, out, err := runShell(t, Config{Sandbox: &sandbox.Spec{Objects: ops}, Bundle: bundle},
		`grep -E '^(TracerPid|Seccomp):' /proc/self/status; (ls /proc/$$/fd > /tmp/fds.$$); tr '\n' ' ' < /tmp/fds.$$; echo; cat `+conf+`; exit 3`)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 || res.Signal != 0 {
		t.Errorf("exit %d, signal %d; want 3, 0", res.ExitCode, res.Signal)
	}
	want := "TracerPid:\t0\nSeccomp:\t0\n0 1 2 \ngood\n"
	if out != want {
		t.Errorf("the command printed %q, want %q", out, want)
	}
	if _, err := os.Lstat(conf); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s exists outside the run: %v", conf, err)
	}
}

// TestRunUntracedView: a sandboxed run's view is handed over after the
// command is gone, and shows what the command wrote there.
func TestRunUntracedView(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.File("/bin/sh"))
	artifact := fmt.Sprintf("/tmp/envbisect-view-test-%d", os.Getpid())
	var view *os.File
	res, _, err := runShell(t, Config{Sandbox: &sandbox.Spec{}, View: func(ns *os.File) { view = ns }}, `echo made > `+artifact)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("run: %v, %+v", err, res)
	}
	if view == nil {
		t.Fatal("no view handed over")
	}
	defer view.Close()
	var got []byte
	var rerr error
	if err := InView(view, func() { got, rerr = os.ReadFile(artifact) }); err != nil {
		t.Fatal(err)
	}
	if rerr != nil || string(got) != "made\n" {
		t.Errorf("the artifact in the view: %q, %v", got, rerr)
	}
	if _, err := os.Lstat(artifact); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s exists outside the run: %v", artifact, err)
	}
}

// TestRunUntracedEnds: what ends a run ends an untraced one: the
// command's exit ends what it left running (named), a timeout kills it,
// and a sandbox whose objects cannot be put in place is an ExecError.
func TestRunUntracedEnds(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.File("/bin/sh"), testutil.Binary("sleep"))
	var warned []string
	begin := time.Now()
	// The shell exits once its child has become sleep (until its exec,
	// the child is a dash, and would be named so).
	res, _, err := runShell(t, Config{Watch: trace.Watch{EndWithRoot: true}, Warn: func(m string) { warned = append(warned, m) }},
		`sleep 100 & until read c </proc/$!/comm && [ "$c" = sleep ]; do :; done; exit 0`)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.LeftRunning) != 1 || !strings.HasSuffix(res.LeftRunning[0], "/sleep") || len(warned) != 1 {
		t.Errorf("left running %v, warned %q: want sleep, once", res.LeftRunning, warned)
	}
	res, _, err = runShell(t, Config{Watch: trace.Watch{Timeout: 300 * time.Millisecond, EndWithRoot: true}}, `exec sleep 100`)
	if err != nil || !res.TimedOut || res.Signal != 9 {
		t.Errorf("timeout: %v, %+v; want timed out, killed", err, res)
	}
	if d := time.Since(begin); d > 20*time.Second {
		t.Errorf("the runs took %s", d)
	}
	spec := &sandbox.Spec{Objects: []envobj.Op{{Kind: envobj.OpMkdir, Path: "/proc/envbisect-test", Mode: 0o755}}}
	_, _, err = runShell(t, Config{Sandbox: spec}, `exit 0`)
	var ee *ExecError
	if !errors.As(err, &ee) || !strings.Contains(ee.Msg, "/proc/envbisect-test") || !bytes.Contains([]byte(ee.Msg), []byte("kernel file system")) {
		t.Errorf("an object that cannot be placed: %v, want an ExecError naming it", err)
	}
}

// TestRunUntracedOthersChildren: a child this process had before the run
// is not the command's: the run neither waits for it nor ends it, and it
// waits for what the command left running when told to
// (no EndWithRoot: --wait-children).
func TestRunUntracedOthersChildren(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.File("/bin/sh"), testutil.Binary("sleep"))
	other := exec.Command("sleep", "100")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		other.Process.Kill()
		other.Wait()
	}()
	begin := time.Now()
	res, _, err := runShell(t, Config{}, `sleep 0.3 & exit 0`)
	if err != nil || res.ExitCode != 0 || len(res.LeftRunning) != 0 {
		t.Fatalf("run: %v, %+v", err, res)
	}
	if d := time.Since(begin); d < 300*time.Millisecond || d > 20*time.Second {
		t.Errorf("the run took %s: want it to wait for the command's sleep 0.3, and only for it", d)
	}
	if _, _, err := runShell(t, Config{Watch: trace.Watch{EndWithRoot: true}}, `exit 0`); err != nil {
		t.Fatal(err)
	}
	if err := other.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the other child is gone: %v", err)
	}
}
