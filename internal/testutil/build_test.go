package testutil

import (
	"bytes"
	"debug/elf"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestMain(m *testing.M) { Main(m) }

// exitCode runs bin with args in dir and returns its exit status and
// combined output.
func exitCode(t *testing.T, dir, bin string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, string(out)
	case errors.As(err, &ee):
		return ee.ExitCode(), string(out)
	}
	t.Fatalf("run %s: %v", bin, err)
	return -1, ""
}

func TestBuildCFig79(t *testing.T) {
	for _, static := range []bool{false, true} {
		name := "dynamic"
		if static {
			name = "static"
		}
		t.Run(name, func(t *testing.T) {
			bin := BuildC(t, "fig79.c", static)
			dir := t.TempDir()
			write := func(name, content string) {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("config.txt", "key=value\n")
			write("bad.txt", "value\n")
			write("nonl.txt", "key=value")

			for _, tc := range []struct {
				name string
				args []string
				code int
				out  string
			}{
				{"default config, well formed", nil, 0, "fig79: key = value"},
				{"malformed", []string{"bad.txt"}, 1, `does not start with "key="`},
				{"no newline", []string{"nonl.txt"}, 1, "no newline"},
				{"missing", []string{"missing.txt"}, 2, "cannot open missing.txt"},
			} {
				code, out := exitCode(t, dir, bin, tc.args...)
				if code != tc.code || !strings.Contains(out, tc.out) {
					t.Errorf("%s: fig79 %v exited %d with %q; want %d and %q", tc.name, tc.args, code, out, tc.code, tc.out)
				}
			}
			if static {
				// a static binary has no program interpreter (PT_INTERP)
				f, err := elf.Open(bin)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				for _, p := range f.Progs {
					if p.Type == elf.PT_INTERP {
						t.Errorf("%s has a program interpreter: not linked statically", bin)
					}
				}
			}
		})
	}
}

func TestBuildCThreads(t *testing.T) {
	bin := BuildC(t, "threads.c", false) // needs -pthread on older glibc
	code, out := exitCode(t, t.TempDir(), bin, "3", "/proc/self/status")
	if code != 0 || !strings.Contains(out, "threads: 3 threads read") {
		t.Errorf("threads exited %d with %q", code, out)
	}
}

func TestBuildGo(t *testing.T) {
	Require(t, Binary("go"))
	bin := BuildGo(t, "gothreads")
	code, out := exitCode(t, t.TempDir(), bin)
	if code != 0 || !strings.Contains(out, "ran /bin/true") {
		t.Errorf("gothreads exited %d with %q", code, out)
	}
}

func TestEnvbisect(t *testing.T) {
	Require(t, Binary("go"))
	bin := Envbisect(t)
	if again := Envbisect(t); again != bin {
		t.Errorf("second Envbisect call built again: %s, then %s", bin, again)
	}
	if code, out := exitCode(t, t.TempDir(), bin, "--help"); code != 0 || !strings.Contains(out, "envbisect") {
		t.Errorf("envbisect --help exited %d with %q", code, out)
	}
}

// leakyM is a test run that leaves an fd and a child process behind.
type leakyM struct {
	file  *os.File
	child *exec.Cmd
}

func (m *leakyM) Run() int {
	var err error
	if m.file, err = os.Open("/proc/self/status"); err != nil {
		panic(err)
	}
	m.child = exec.Command("sleep", "60")
	if err := m.child.Start(); err != nil {
		panic(err)
	}
	return 0
}

func TestMainReportsLeaks(t *testing.T) {
	Require(t, Binary("sleep"))
	m := &leakyM{}
	var report bytes.Buffer
	code := runMain(m, &report, 100*time.Millisecond)
	m.file.Close()
	m.child.Process.Release() // its pidfd; runMain has reaped it
	if code != 1 {
		t.Errorf("runMain returned %d after a leaking run, want 1", code)
	}
	for _, want := range []string{
		"leaked file descriptor",
		"/status (opened by the tests",
		"(sleep, state S) left behind: still a child of the test process",
	} {
		if !strings.Contains(report.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, report.String())
		}
	}
	// runMain killed and reaped the child: nothing is left for the real Main.
	if _, _, _, alive := readStat(filepath.Join("/proc", strconv.Itoa(m.child.Process.Pid), "stat")); alive {
		t.Errorf("child %d still exists after runMain", m.child.Process.Pid)
	}
}

func TestMainCleanRun(t *testing.T) {
	var report bytes.Buffer
	if code := runMain(cleanM{}, &report, 100*time.Millisecond); code != 0 || report.Len() > 0 {
		t.Errorf("runMain on a clean run returned %d and reported %q", code, report.String())
	}
}

type cleanM struct{}

func (cleanM) Run() int {
	out, err := exec.Command("true").Output() // pipes and a child, all cleaned up
	_ = out
	if err != nil {
		return 3
	}
	return 0
}

func TestLeftoverTraced(t *testing.T) {
	Require(t, Ptrace, Binary("sleep"))
	// The tracer of a PTRACE_TRACEME child is the thread that forked it.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd := exec.Command("sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Ptrace: true} // stops at its exec
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	var found *proc
	for _, p := range leftoverProcs() {
		if p.pid == cmd.Process.Pid {
			found = &p
		}
	}
	if found == nil {
		t.Fatalf("leftoverProcs does not list the traced child %d", cmd.Process.Pid)
	}
	if !found.child || !strings.Contains(found.why, "still traced by thread") {
		t.Errorf("leftoverProcs says %+v; want a child still traced", *found)
	}
}
