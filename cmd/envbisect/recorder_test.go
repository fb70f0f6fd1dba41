package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/tracefile"
)

// residentRecorder is an `envbisect recorder` the test started.
type residentRecorder struct {
	cmd    *exec.Cmd
	socket string
	ids    []string // its programs' ids, from its first line
	lines  chan string
	mu     sync.Mutex
	log    []string
	done   chan error
}

// startRecorder runs envbisect recorder with args, and waits until it
// listens. The test's cleanup stops it if the test did not.
func startRecorder(t *testing.T, socket string, args ...string) *residentRecorder {
	t.Helper()
	r := &residentRecorder{socket: socket, lines: make(chan string, 100), done: make(chan error, 1)}
	r.cmd = exec.Command(testutil.Envbisect(t), append([]string{"recorder", "--socket", socket}, args...)...)
	stderr, err := r.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			r.mu.Lock()
			r.log = append(r.log, sc.Text())
			r.mu.Unlock()
			select {
			case r.lines <- sc.Text():
			default:
			}
		}
		io.Copy(io.Discard, stderr)
		r.done <- r.cmd.Wait()
	}()
	t.Cleanup(func() {
		if r.cmd.ProcessState == nil {
			r.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-r.done:
			case <-time.After(30 * time.Second):
				r.cmd.Process.Kill()
			}
		}
	})
	first := r.waitLine(t, "listening on ")
	_, list, ok := strings.Cut(first, "(programs ")
	if !ok {
		t.Fatalf("the recorder's first line names no programs: %q", first)
	}
	r.ids = strings.Fields(strings.TrimSuffix(list, " loaded)"))
	if len(r.ids) != 5 {
		t.Fatalf("the recorder names %d programs (%q), want its 5", len(r.ids), first)
	}
	return r
}

// waitLine waits for a line of the recorder's containing s (a bound on
// the wait keeps a broken recorder from hanging the test).
func (r *residentRecorder) waitLine(t *testing.T, s string) string {
	t.Helper()
	limit := time.After(2 * time.Minute)
	for {
		select {
		case l := <-r.lines:
			if strings.Contains(l, s) {
				return l
			}
		case err := <-r.done:
			r.done <- err
			t.Fatalf("the recorder exited (%v) before saying %q:\n%s", err, s, r.logText())
		case <-limit:
			t.Fatalf("the recorder did not say %q:\n%s", s, r.logText())
		}
	}
}

func (r *residentRecorder) logText() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.log, "\n")
}

// stop sends SIGTERM and checks that the recorder leaves nothing behind:
// exit 0, no socket, none of its programs loaded (bpftool).
func (r *residentRecorder) stop(t *testing.T) {
	t.Helper()
	r.cmd.Process.Signal(syscall.SIGTERM)
	var err error
	select {
	case err = <-r.done:
	case <-time.After(2 * time.Minute):
		r.cmd.Process.Kill()
		t.Fatalf("the recorder did not stop at SIGTERM:\n%s", r.logText())
	}
	if err != nil {
		t.Errorf("the recorder stopped with %v:\n%s", err, r.logText())
	}
	if _, err := os.Lstat(r.socket); err == nil {
		t.Errorf("the recorder left its socket %s", r.socket)
	}
	for _, id := range r.ids {
		out, err := exec.Command("bpftool", "prog", "show", "id", id).CombinedOutput()
		if err == nil {
			t.Errorf("program %s of the stopped recorder is still loaded: %s", id, out)
		}
	}
}

// procCalls lists, per process of a trace (in the trace's numbering), the
// names of its calls in order.
func procCalls(t *testing.T, path string) map[uint32][]string {
	t.Helper()
	tr, err := tracefile.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := systable.Native()
	if err != nil {
		t.Fatal(err)
	}
	out := map[uint32][]string{}
	for _, ev := range tr.Events {
		if c := ev.Call; c != nil {
			out[c.Proc] = append(out[c.Proc], tab.ByNr(int(c.Nr)).Name)
		}
	}
	return out
}

// recordPair records two commands at once with the given record flags:
// the first blocks opening a FIFO until the second opens it, so both are
// being recorded at the same time.
func recordPair(t *testing.T, dir, tag string, flags ...string) (a, b string) {
	t.Helper()
	fifo := filepath.Join(dir, "gate-"+tag)
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	words := filepath.Join(dir, "words")
	a, b = filepath.Join(dir, tag+"-a.envb"), filepath.Join(dir, tag+"-b.envb")
	cmds := [][]string{
		{"sh", "-c", "read go < " + fifo + "; sort -r " + words + "; wc -c " + words},
		{"sh", "-c", "echo go > " + fifo + "; grep -c o " + words + "; tr a-z A-Z < " + words},
	}
	outs := []string{a, b}
	var wg sync.WaitGroup
	errs := make([]string, 2)
	for i := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := append([]string{"record", "--cpu", "any", "-o", outs[i]}, flags...)
			cmd := exec.Command(testutil.Envbisect(t), append(append(args, "--"), cmds[i]...)...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				errs[i] = fmt.Sprintf("record %v: %v\n%s", cmds[i], err, out)
			} else {
				errs[i] = string(out)
			}
		}()
	}
	wg.Wait()
	for i, e := range errs {
		if _, err := os.Stat(outs[i]); err != nil {
			t.Fatalf("%s", e)
		}
		if strings.Contains(strings.Join(flags, " "), "--recorder") && !strings.Contains(e, "through the recorder at") {
			t.Errorf("record %v did not go through the recorder:\n%s", cmds[i], e)
		}
	}
	return a, b
}

// TestRecorderConcurrent: two commands recorded at once through one
// resident recorder give the calls a ptrace recording of them gives,
// process by process; stopped, the recorder leaves nothing loaded.
func TestRecorderConcurrent(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF, testutil.Ptrace, testutil.Binary("bpftool"),
		testutil.Binary("sort"), testutil.Binary("tr"))
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "words"), []byte("one\ntwo\nthree\nfour\n"), 0o644)
	r := startRecorder(t, filepath.Join(dir, "recorder.sock"))
	if fi, err := os.Stat(r.socket); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket: %v, mode %v; want 0600 without --group", err, fi.Mode())
	}
	ea, eb := recordPair(t, dir, "ebpf", "--backend", "ebpf", "--recorder", r.socket)
	if got := strings.Count(r.logText(), "following process"); got != 2 {
		t.Errorf("the recorder followed %d processes, want 2:\n%s", got, r.logText())
	}
	pa, pb := recordPair(t, dir, "ptrace")
	for _, pair := range [][2]string{{ea, pa}, {eb, pb}} {
		got, want := procCalls(t, pair[0]), procCalls(t, pair[1])
		if len(got) != len(want) || len(got) < 3 {
			t.Errorf("%s: %d processes, the ptrace recording %d", pair[0], len(got), len(want))
			continue
		}
		for p, w := range want {
			if g := got[p]; strings.Join(g, " ") != strings.Join(w, " ") {
				t.Errorf("%s process %d:\n recorder %s\n ptrace   %s", filepath.Base(pair[0]), p, strings.Join(g, " "), strings.Join(w, " "))
			}
		}
	}
	r.stop(t)
}

// TestRecorderNotRoot: a member of the socket's group who is not root
// records through the recorder (it could not load the probe), and a
// set-user-ID program its command runs is not passed on to it.
func TestRecorderNotRoot(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF, testutil.Binary("setpriv"), testutil.Binary("bpftool"),
		testutil.File("/usr/bin/chage"))
	dir, err := os.MkdirTemp("", "envbisect-recorder-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o777)
	b, err := os.ReadFile(testutil.Envbisect(t))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "envbisect"), b, 0o755)
	os.WriteFile(filepath.Join(dir, "note"), []byte("for nobody's eyes\n"), 0o644)
	r := startRecorder(t, filepath.Join(dir, "recorder.sock"), "--group", "nogroup")
	if fi, err := os.Stat(r.socket); err != nil || fi.Mode().Perm() != 0o660 {
		t.Errorf("socket: %v, mode %v; want 0660 with --group", err, fi.Mode())
	}
	// chage is set-group-ID shadow: run by nobody under the recorder it
	// must not be seen reading /etc/shadow.
	cmd := exec.Command("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--inh-caps=-all",
		"./envbisect", "record", "--backend", "ebpf", "--recorder", r.socket, "-o", "t.envb", "--",
		"sh", "-c", "cat note; chage -l nobody; true")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "through the recorder at") {
		t.Fatalf("record as nobody through the recorder: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "WARNING: 1 process(es) of CMD ran a set-user-ID, set-group-ID or file-capability program") {
		t.Errorf("record does not warn that chage was not recorded:\n%s", out)
	}
	code, stdout, _ := cli(t, "show", filepath.Join(dir, "t.envb"))
	if code != 0 || !strings.Contains(stdout, `read(3, "for nobody's eyes\n"`) {
		t.Errorf("show: exit %d, want cat's read of the note:\n%s", code, lastLines(stdout, 30))
	}
	if strings.Contains(stdout, "/etc/shadow") || strings.Contains(stdout, "getspnam") {
		t.Errorf("the set-group-ID chage's calls reached a client that is not root:\n%s", stdout)
	}
	// sh is process 1, cat 2, chage 3: the fork of chage is there, nothing
	// of it from its exec on.
	if !strings.Contains(stdout, "--- spawned [3] by fork ---") || strings.Contains(stdout, "\n[3] ") {
		t.Errorf("want chage's process spawned and none of its calls:\n%s", lastLines(stdout, 30))
	}
	r.stop(t)
}

// TestRecorderDocker: a container started after the recorder, with its
// label, is recorded to its own trace in --dir, and the trace is
// finished when it exits; one without the label is not recorded.
func TestRecorderDocker(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF, testutil.Docker, testutil.Binary("bpftool"))
	root := testutil.BusyboxRoot(t, "/bin/busybox")
	root.Files["etc/marker"] = []byte("seen by the resident recorder\n")
	image := testutil.ImportImage(t, root, "/")
	dir := t.TempDir()
	traces := filepath.Join(dir, "traces")
	label := testutil.UniqueName(t, "label")
	r := startRecorder(t, filepath.Join(dir, "recorder.sock"), "--docker", "--label", label+"=1", "--dir", traces)
	r.waitLine(t, "following containers labelled")

	other := testutil.UniqueName(t, "unlabelled")
	t.Cleanup(func() { testutil.DockerQuiet("rm", "-f", other) })
	testutil.RunDocker(t, nil, "run", "--network", "none", "--name", other, image, "cat", "/etc/marker")

	name := testutil.UniqueName(t, "recorded")
	t.Cleanup(func() { testutil.DockerQuiet("rm", "-f", name) })
	run := exec.Command("docker", "run", "-i", "--network", "none", "--label", label+"=1", "--name", name,
		image, "sh", "-c", "read go; cat /etc/marker")
	stdin, err := run.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	run.Stdout = &out
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	// The container waits on its standard input until the recorder
	// follows it.
	r.waitLine(t, "following container "+name)
	io.WriteString(stdin, "go\n")
	stdin.Close()
	if err := run.Wait(); err != nil || !strings.Contains(out.String(), "seen by") {
		t.Fatalf("docker run: %v, output %q", err, out.String())
	}
	done := r.waitLine(t, "container "+name+": recorded")
	file := done[strings.LastIndex(done, " to ")+4:]
	if filepath.Dir(file) != traces || !strings.HasPrefix(filepath.Base(file), name+"-") {
		t.Errorf("trace %s, want %s/%s-ID.envb", file, traces, name)
	}
	code, stdout, _ := cli(t, "show", file)
	// The init process was followed while it waited: its read of the
	// gate is there, then cat (busybox sends the file with sendfile).
	if code != 0 || !strings.Contains(stdout, `[1] read(0, "g", 1) = 1`) ||
		!strings.Contains(stdout, `openat(AT_FDCWD, "/etc/marker", O_RDONLY) = 3`) ||
		!strings.Contains(stdout, fmt.Sprintf("sendfile(1, 3, NULL, 16777216) = %d", len(root.Files["etc/marker"]))) {
		t.Errorf("show %s: exit %d, want the container's read of its gate, then cat's open and sendfile of /etc/marker:\n%s",
			file, code, lastLines(stdout, 30))
	}
	if entries, _ := os.ReadDir(traces); len(entries) != 1 {
		t.Errorf("%d traces in %s, want the labelled container's only", len(entries), traces)
	}
	if strings.Contains(r.logText(), other) {
		t.Errorf("the recorder followed the unlabelled container:\n%s", r.logText())
	}
	r.stop(t)
}
