package testutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// workNSChildEnv makes TestInWorkNSKillsWhatHangs run as the child it
// starts: its InWorkNS calls are the ones expected to fail.
const workNSChildEnv = "ENVBISECT_TEST_WORKNS_CHILD"

// TestInWorkNSKillsWhatHangs runs this test binary again with two
// InWorkNS scripts (without $EB: the script runner alone) that would hang a test forever: one that never ends,
// and one that exits leaving a process behind that holds its output
// open. Each must fail its test with its output and a reason, and the
// processes they started must be gone.
func TestInWorkNSKillsWhatHangs(t *testing.T) {
	if dir := os.Getenv(workNSChildEnv); dir != "" {
		hangingScripts(t, dir)
		return
	}
	Require(t, Root, Ptrace, Binary("unshare"), Binary("sleep"))
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestInWorkNSKillsWhatHangs$", "-test.v", "-test.timeout=5m")
	cmd.Env = append(os.Environ(), workNSChildEnv+"="+dir, ScriptTimeoutEnv+"=3s")
	b, err := cmd.CombinedOutput()
	out := string(b)
	if err == nil {
		t.Fatalf("the child test passed; its scripts should have failed it:\n%s", out)
	}
	for _, want := range []string{
		"started forever",
		"script: still running after 3s (" + ScriptTimeoutEnv + "): killed its process group",
		"started leftover",
		"but a process it left behind kept its output open: killed its process group",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the child's output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "test timed out") {
		t.Errorf("the child ran into go test's -timeout: InWorkNS did not end the script:\n%s", out)
	}
	for _, name := range []string{"forever.pid", "leftover.pid"} {
		pid := readPID(t, filepath.Join(dir, name))
		if alive := waitGone(pid, 5*time.Second); alive {
			t.Errorf("%s: process %d the script started is still running", name, pid)
		}
	}
}

// hangingScripts is the child's part: two scripts, each of which fails
// its subtest (that is expected: the parent reads why).
func hangingScripts(t *testing.T, dir string) {
	w := t.TempDir()
	t.Run("forever", func(t *testing.T) {
		runWorkScript(t, `sleep 600 & echo $! > `+dir+`/forever.pid
echo started forever
sleep 601
`, "W="+w)
	})
	t.Run("leftover", func(t *testing.T) {
		runWorkScript(t, `sleep 600 & echo $! > `+dir+`/leftover.pid
echo started leftover
`, "W="+w)
	})
}

func readPID(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the script did not write its background pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return pid
}

// waitGone reports whether pid is still running (not gone, not a zombie)
// after up to wait: a process SIGKILLed a moment ago may still be exiting.
func waitGone(pid int, wait time.Duration) (alive bool) {
	stat := filepath.Join("/proc", strconv.Itoa(pid), "stat")
	for end := time.Now().Add(wait); ; time.Sleep(50 * time.Millisecond) {
		_, state, _, ok := readStat(stat)
		alive = ok && state != "Z" && state != "X"
		if !alive || time.Now().After(end) {
			return alive
		}
	}
}
