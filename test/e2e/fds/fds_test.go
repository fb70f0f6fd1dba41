package fds_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// lister prints the descriptors of the shell itself ($$), not of ls,
// which opens the directory it lists.
var lister = []string{"sh", "-c", "ls -l /proc/$$/fd"}

// inherited are the descriptors the parent of envbisect holds besides
// 0, 1 and 2.
var inherited = []int{3, 4, 251}

// eb runs envbisect with args from a parent holding inherited, and
// returns its exit status and output.
func eb(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	code, stdout, stderr := testutil.RunWithFDs(t, inherited, append([]string{testutil.Envbisect(t)}, args...)...)
	t.Logf("envbisect %s: exit %d\nstdout:\n%sstderr:\n%s", strings.Join(args, " "), code, stdout, stderr)
	return code, stdout, stderr
}

// mustList runs envbisect with args (a command that runs lister), wants
// exit 0, and returns the descriptors lister printed.
func mustList(t *testing.T, args ...string) []int {
	t.Helper()
	code, stdout, _ := eb(t, append(args, lister...)...)
	if code != 0 {
		t.Fatalf("envbisect %s: exit %d, want 0", strings.Join(args, " "), code)
	}
	fds, _ := testutil.ListedFDs(stdout)
	return fds
}

// startFDs returns the descriptors `show` says the trace's command
// started with ("# start: fd 251=/dev/null" lines), as "251=/dev/null".
func startFDs(t *testing.T, trace string) []string {
	t.Helper()
	code, stdout, stderr := testutil.RunWithFDs(t, nil, testutil.Envbisect(t), "show", trace)
	if code != 0 {
		t.Fatalf("show %s: exit %d: %s", trace, code, stderr)
	}
	var out []string
	for _, line := range strings.Split(stdout, "\n") {
		if v, ok := strings.CutPrefix(line, "# start: fd "); ok {
			out = append(out, v)
		}
	}
	return out
}

// names returns the descriptor numbers of startFDs' items.
func names(items []string) []string {
	var out []string
	for _, it := range items {
		n, _, _ := strings.Cut(it, "=")
		out = append(out, n)
	}
	return out
}

var std = []int{0, 1, 2}

// TestOnlyStdFDsReachCommand: envbisect's parent holds fds 3, 4 and 251;
// a shell recorded, replayed and located lists 0, 1 and 2 only, and the
// trace's start items name those three. With --keep-fds 251 the shell
// has 251 too, on the parent's /dev/null, and the trace names it; a
// replay without it says the recording had it. With --keep-fds 3,251,
// where the helper's and parallel workers' own pipes would otherwise
// be, every run of locate --jobs 2 gives the shell 3 and 251.
func TestOnlyStdFDsReachCommand(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp, testutil.Binary("ls"))
	dir := t.TempDir()
	plain, kept := filepath.Join(dir, "plain.envb"), filepath.Join(dir, "kept.envb")

	if got := mustList(t, "record", "-q", "-o", plain, "--"); !slices.Equal(got, std) {
		t.Errorf("record: the command has fds %v, want %v (the parent's 3, 4 and 251 stay out)", got, std)
	}
	if got := names(startFDs(t, plain)); !slices.Equal(got, []string{"0", "1", "2"}) {
		t.Errorf("the trace's start items name fds %v, want 0, 1 and 2", got)
	}
	if got := mustList(t, "replay", "-q", "--prefix", "none", plain, "--"); !slices.Equal(got, std) {
		t.Errorf("replay: the command has fds %v, want %v", got, std)
	}

	want := []int{0, 1, 2, 251}
	if got := mustList(t, "record", "-q", "--keep-fds", "251", "-o", kept, "--"); !slices.Equal(got, want) {
		t.Errorf("record --keep-fds 251: the command has fds %v, want %v", got, want)
	}
	items := startFDs(t, kept)
	if !slices.Equal(names(items), []string{"0", "1", "2", "251"}) || items[3] != "251="+os.DevNull {
		t.Errorf("the trace's start items: fd %v, want 0, 1, 2 and 251=/dev/null", items)
	}
	code, stdout, stderr := eb(t, append([]string{"replay", "-q", "--prefix", "none", "--keep-fds", "251", kept, "--"}, lister...)...)
	if fds, _ := testutil.ListedFDs(stdout); code != 0 || !slices.Equal(fds, want) || strings.Contains(stderr, "descriptors") {
		t.Errorf("replay --keep-fds 251: exit %d, fds %v, want 0 and %v without a warning", code, fds, want)
	}
	code, stdout, stderr = eb(t, append([]string{"replay", "-q", "--prefix", "none", kept, "--"}, lister...)...)
	warning := "CMD started with descriptors 0, 1, 2 and 251 in the recording, and gets 0, 1 and 2 in these runs: give --keep-fds 251 to pass the same"
	if fds, _ := testutil.ListedFDs(stdout); code != 0 || !slices.Equal(fds, std) || !strings.Contains(stderr, warning) {
		t.Errorf("replay of the --keep-fds 251 recording without it: exit %d, fds %v; want 0, %v and the warning %q", code, fds, std, warning)
	}

	t.Run("locate", func(t *testing.T) {
		logs := filepath.Join(dir, "logs")
		code, _, _ := eb(t, append([]string{"locate", "-q", "--logs", logs, plain, "--"}, lister...)...)
		if code != 3 {
			t.Errorf("locate of a command that passes here: exit %d, want 3 (no failure)", code)
		}
		checkRunLogs(t, logs, std)
	})
	t.Run("locate --jobs 2 --keep-fds 3,251", func(t *testing.T) {
		testutil.Require(t, testutil.CPUs(2))
		both := filepath.Join(dir, "both.envb")
		want := []int{0, 1, 2, 3, 251}
		if got := mustList(t, "record", "-q", "--keep-fds", "3,251", "-o", both, "--"); !slices.Equal(got, want) {
			t.Errorf("record --keep-fds 3,251: the command has fds %v, want %v", got, want)
		}
		logs := filepath.Join(dir, "logs-jobs")
		code, _, stderr := eb(t, append([]string{"locate", "-q", "--jobs", "2", "--keep-fds", "3", "--keep-fds", "251", "--logs", logs, both, "--"}, lister...)...)
		if code != 3 || strings.Contains(stderr, "descriptors") {
			t.Errorf("locate --jobs 2: exit %d, want 3 (no failure) without a warning of descriptors", code)
		}
		checkRunLogs(t, logs, want)
	})
}

// checkRunLogs checks that every run locate logged in dir listed want.
func checkRunLogs(t *testing.T, dir string, want []int) {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(dir, "run-*.log"))
	if len(logs) == 0 {
		t.Fatalf("no run logged in %s", dir)
	}
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := testutil.ListedFDs(string(b)); !slices.Equal(got, want) {
			t.Errorf("%s: the command had fds %v, want %v:\n%s", filepath.Base(l), got, want, b)
		}
	}
}

// TestOnlyStdFDsReachCommandEBPF is the recording of
// TestOnlyStdFDsReachCommand with the eBPF backend.
func TestOnlyStdFDsReachCommandEBPF(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.EBPF, testutil.Binary("ls"))
	dir := t.TempDir()
	plain, kept := filepath.Join(dir, "plain.envb"), filepath.Join(dir, "kept.envb")
	if got := mustList(t, "record", "-q", "--backend", "ebpf", "-o", plain, "--"); !slices.Equal(got, std) {
		t.Errorf("record --backend ebpf: the command has fds %v, want %v", got, std)
	}
	if got := names(startFDs(t, plain)); !slices.Equal(got, []string{"0", "1", "2"}) {
		t.Errorf("the trace's start items name fds %v, want 0, 1 and 2", got)
	}
	want := []int{0, 1, 2, 251}
	if got := mustList(t, "record", "-q", "--backend", "ebpf", "--keep-fds", "251", "-o", kept, "--"); !slices.Equal(got, want) {
		t.Errorf("record --backend ebpf --keep-fds 251: the command has fds %v, want %v", got, want)
	}
	if items := startFDs(t, kept); !slices.Equal(names(items), []string{"0", "1", "2", "251"}) || items[3] != "251="+os.DevNull {
		t.Errorf("the trace's start items: fd %v, want 0, 1, 2 and 251=/dev/null", items)
	}
}

// TestFirstFileUnderLimit: under an open-files limit of 12 (soft; the
// hard limit leaves envbisect room), paste of 20 files, recorded from a
// parent holding fds 3, 4, 5 and 251, cannot open f9: fds 3 to 11 hold
// f0 to f8, as they would with 0, 1 and 2 only (docker exec). With
// --keep-fds 3 it cannot open f8.
func TestFirstFileUnderLimit(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp, testutil.Binary("paste"), testutil.Binary("prlimit"))
	dir := t.TempDir()
	var files []string
	for i := range 20 {
		p := filepath.Join(dir, fmt.Sprintf("f%d", i))
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	const limit = 12
	for _, c := range []struct {
		keep  []string
		first string
	}{
		{nil, "f9"},
		{[]string{"--keep-fds", "3"}, "f8"},
	} {
		args := append([]string{"prlimit", fmt.Sprintf("--nofile=%d:4096", limit), "--", testutil.Envbisect(t),
			"record", "-q", "-o", filepath.Join(dir, "t.envb")}, c.keep...)
		args = append(append(args, "--", "paste"), files...)
		code, _, stderr := testutil.RunWithFDs(t, []int{3, 4, 5, 251}, args...)
		want := "paste: " + filepath.Join(dir, c.first) + ": Too many open files"
		if first, _, _ := strings.Cut(stderr, "\n"); code == 0 || first != want {
			t.Errorf("record %v of paste under a limit of %d: exit %d, first line of stderr %q, want %q", c.keep, limit, code, first, want)
		}
	}
}
