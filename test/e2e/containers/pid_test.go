package containers

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// privateNamespace starts a process in mount and pid namespaces of its
// own (unshare --mount --pid --fork --mount-proc) in which a tmpfs over
// dir holds app.conf with conf, and which works in dir. It returns the
// process's pid.
func privateNamespace(t *testing.T, dir, conf string) int {
	t.Helper()
	testutil.Require(t, testutil.Binary("mount"))
	return testutil.Unshare(t, []string{"--mount", "--pid", "--mount-proc"},
		fmt.Sprintf("mount -t tmpfs none %[1]s && printf %%s '%[2]s' >%[1]s/app.conf && cd %[1]s", dir, conf))
}

// TestPidLocate records fig79 in one private namespace, where dir's
// app.conf (a tmpfs only that namespace sees) is good, and replays and
// locates it with --pid in another, where it is bad. On the host dir
// holds no app.conf at all: a run that did not join would fail to open
// it (exit status 2) instead of reading the bad one (exit status 1).
func TestPidLocate(t *testing.T) {
	requireTracing(t)
	victim := testutil.BuildC(t, "fig79.c", true)
	dir := t.TempDir()
	good := privateNamespace(t, dir, goodConf)
	bad := privateNamespace(t, dir, badConf)
	if _, err := os.Stat(filepath.Join(dir, "app.conf")); err == nil {
		t.Fatalf("%s/app.conf is visible on the host: the namespaces' mounts leaked", dir)
	}
	cmd := []string{"--", victim, "app.conf"}

	trace := filepath.Join(t.TempDir(), "good.envb")
	r := mustExit(t, 0, append([]string{"record", "-q", "--pid", strconv.Itoa(good), "-o", trace}, cmd...)...)
	if !strings.Contains(string(r.Stdout), "fig79: key = good") {
		t.Errorf("the recorded run did not read the namespace's config:\n%s", r)
	}
	if c := header(t, trace)["container"]; c != "pid "+strconv.Itoa(good) {
		t.Errorf("trace header container %q, want %q", c, "pid "+strconv.Itoa(good))
	}
	tr := readTrace(t, trace)
	var reads int
	for _, c := range tr.Calls {
		if c.Syscall == "read" && c.Path == filepath.Join(dir, "app.conf") {
			reads++
		}
	}
	if reads != 1 {
		t.Errorf("%d reads of %s/app.conf in the trace, want 1", reads, dir)
	}

	badPid := strconv.Itoa(bad)
	if v, d := replayVerdict(t, "none", append([]string{"--pid", badPid, trace}, cmd...)...); v != "fail" || d != "exit status 1" {
		t.Errorf("replay with nothing replayed in pid %s's namespaces: %s (%s), want fail (exit status 1: the bad config, not a missing one)", badPid, v, d)
	}
	if v, d := replayVerdict(t, "all", append([]string{"--pid", badPid, trace}, cmd...)...); v != "pass" {
		t.Errorf("replay with everything replayed: %s (%s), want pass", v, d)
	}
	rep := locate(t, append([]string{"--pid", badPid, trace}, cmd...)...)
	if rep.Status != "located" || rep.Culprit == nil {
		t.Fatalf("locate: status %q (%s), want located", rep.Status, rep.Message)
	}
	// The open of app.conf: replayed, it hands out the good file the
	// trace keeps.
	if c := rep.Culprit; c.Syscall != "openat" || c.Path != filepath.Join(dir, "app.conf") {
		t.Errorf("culprit %s %s (%s), want the open of %s/app.conf", c.Syscall, c.Path, c.Call, dir)
	}
}
