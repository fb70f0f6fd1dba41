package unusual_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestThirtyTwoBitRefused: a 64-bit program making an i386 call through
// int 0x80, and a 32-bit static program, are refused by record with the
// seccomp filter and without it (the PTRACE_SYSCALL fallback): exit 1,
// an error naming the process (pid and executable) and saying that
// 32-bit system calls are not supported, never the i386 open recorded as
// the x86-64 call of its number (fstat), never an "invalid event".
func TestThirtyTwoBitRefused(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp)
	eb := testutil.Envbisect(t)
	int80 := testutil.BuildC(t, "int80open.c", true)
	progs := []struct{ name, path, how string }{
		{"int 0x80", int80, "made i386 system call 5"},
		{"32-bit program", build32(t, "open32.c"), "is a 32-bit (i386) program"},
	}
	for _, p := range progs {
		if code, _, _ := runCmd(t, exec.Command(p.path)); code != 0 {
			t.Fatalf("%s: %s exits %d natively, want 0", p.name, p.path, code)
		}
		for _, mode := range [][]string{nil, {"--no-seccomp"}} {
			t.Run(fmt.Sprintf("%s %v", p.name, mode), func(t *testing.T) {
				refused(t, eb, mode, p.path, p.how)
			})
		}
	}
}

// TestThirtyTwoBitRefusedEBPF: the same programs recorded with the eBPF
// backend are refused the same way. Its probe cannot stop a call, so the
// i386 call runs, but it is never decoded as an x86-64 one: the probe
// reads the task's TS_COMPAT at the call's entry and the recorder ends
// the run at the first such call.
func TestThirtyTwoBitRefusedEBPF(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF)
	eb := testutil.Envbisect(t)
	t.Run("int 0x80", func(t *testing.T) {
		refused(t, eb, []string{"--backend", "ebpf"}, testutil.BuildC(t, "int80open.c", true), "made i386 system call 5")
	})
	t.Run("32-bit program", func(t *testing.T) {
		refused(t, eb, []string{"--backend", "ebpf"}, build32(t, "open32.c"), "is a 32-bit (i386) program")
	})
}

// refused records prog with the options mode and checks the refusal: exit
// 1, an error naming the process (pid and executable) that says how it
// used the 32-bit ABI, never the i386 open recorded as the x86-64 call of
// its number (fstat), never an "invalid event", and no trace left.
func refused(t *testing.T, eb string, mode []string, prog, how string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "t.envb")
	args := append(append([]string{"record", "-o", out}, mode...), "--", prog)
	code, _, stderr := run(t, eb, args...)
	if code != 1 {
		t.Errorf("exit %d, want 1 (an error)", code)
	}
	want := regexp.MustCompile(`pid \d+ \(` + regexp.QuoteMeta(prog) + `\) ` + regexp.QuoteMeta(how) +
		`: 32-bit system calls are not supported`)
	if !want.MatchString(stderr) {
		t.Errorf("stderr does not match %q", want)
	}
	if strings.Contains(stderr, "invalid event") {
		t.Errorf("an internal error instead of the refusal")
	}
	// A refused run leaves no trace: none would hold what it did, and a
	// trace is "cut short" only when its recording was.
	if exists(out) {
		t.Errorf("record left %s after refusing the run", out)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".*.partial")); len(left) > 0 {
		t.Errorf("partial files left behind: %v", left)
	}
}

// build32 compiles testdata/victims/src with gcc -m32 -static into a
// temporary directory (gcc-multilib: the i386 libc).
func build32(t *testing.T, src string) string {
	t.Helper()
	testutil.Require(t, testutil.Binary("gcc"), testutil.File("/usr/lib32/libc.a"))
	out := filepath.Join(t.TempDir(), strings.TrimSuffix(src, ".c")+"-m32")
	cmd := exec.Command("gcc", "-m32", "-static", "-O2", "-Wall", "-o", out,
		filepath.Join(testutil.RepoRoot(t), "testdata", "victims", src))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gcc -m32 %s: %v\n%s", src, err, b)
	}
	return out
}
