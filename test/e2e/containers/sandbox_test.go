package containers

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// treeHashScript prints, for every file under /w, its name, mode, owner,
// size and link target, then the sha256 of every regular file: two equal
// outputs mean an unchanged tree.
const treeHashScript = `cd /w && find . | sort | while read -r f; do stat -c '%n %a %u %g %s %N' "$f"; done && find . -type f | sort | xargs sha256sum`

// stateContainer makes a running container of a busybox image whose work
// directory /w holds testutil.StateScript as init.sh, old.log, data/ and conf with
// the given content.
func stateContainer(t *testing.T, what, conf string) string {
	t.Helper()
	root := testutil.BusyboxRoot(t, testutil.BuildC(t, "fig79.c", true))
	for _, tool := range []string{"mkdir", "mv", "chmod", "rm", "find", "sort", "stat", "xargs", "sha256sum"} {
		root.Symlinks["bin/"+tool] = "busybox"
	}
	root.Files["w/init.sh"] = []byte(testutil.StateScript)
	root.Exec["w/init.sh"] = true
	root.Files["w/old.log"] = []byte("old\n")
	root.Files["w/data/.keep"] = nil
	root.Files["w/conf"] = []byte(conf)
	return testutil.StartContainer(t, testutil.ImportImage(t, root, "/w"), what)
}

// containerState is what the test compares before and after: the work
// tree's hash and docker diff (the container's changes to its image).
func containerState(t *testing.T, name string) string {
	t.Helper()
	return testutil.RunDocker(t, nil, "exec", name, "sh", "-c", treeHashScript) +
		"\n--- docker diff\n" + testutil.RunDocker(t, nil, "diff", name)
}

// TestContainerSandbox: runs inside a container (--container) are isolated
// in the container's file system as on the host. A command that writes
// into the container's file system and refuses to run over the state it
// made is located at the configuration read that differs, sequentially and
// with --jobs 2, and after those locates and a fully replayed run the
// container's files are what they were.
func TestContainerSandbox(t *testing.T) {
	requireTracing(t)
	testutil.Require(t, testutil.Docker)
	good := stateContainer(t, "good", "mode=good\n")
	bad := stateContainer(t, "bad", "mode=bad\n")

	trace := t.TempDir() + "/good.envb"
	mustExit(t, 0, "record", "-q", "--container", good, "-o", trace, "--", "./init.sh")

	before := containerState(t, bad)
	if v, d := replayVerdict(t, "none", "--container", bad, trace, "--", "./init.sh"); v != "fail" {
		t.Errorf("replay with nothing replayed: %s (%s), want fail", v, d)
	}
	if v, d := replayVerdict(t, "all", "--container", bad, trace, "--", "./init.sh"); v != "pass" {
		t.Errorf("replay with everything replayed: %s (%s), want pass", v, d)
	}
	for _, jobs := range []string{"1", "2"} {
		// --jobs 2 is the call-level search's (the object search makes
		// one untraced run at a time): --materialize=false.
		args := []string{"locate", "--json", "-q", "--jobs", jobs, "--container", bad}
		if jobs != "1" {
			args = append(args, "--materialize=false")
		}
		r := mustExit(t, 0, append(args, trace, "--", "./init.sh")...)
		var rep struct {
			Status    string `json:"status"`
			Message   string `json:"message"`
			Isolation string `json:"isolation"`
			Culprit   *struct {
				Syscall string `json:"syscall"`
				Path    string `json:"path"`
			} `json:"culprit"`
			Steps []struct {
				Round int `json:"round"`
			} `json:"steps"`
		}
		if err := json.Unmarshal(r.Stdout, &rep); err != nil {
			t.Fatalf("--jobs %s: %v\n%s", jobs, err, r)
		}
		// The open of /w/conf where the trace keeps the file (its replay
		// hands out the good one), else the read of it.
		if rep.Culprit == nil || !servedOrRead(rep.Culprit.Syscall) || rep.Culprit.Path != "/w/conf" {
			t.Errorf("--jobs %s: %s %+v (%s), want the open or read of /w/conf", jobs, rep.Status, rep.Culprit, rep.Message)
		}
		if !strings.Contains(rep.Isolation, "container's file system") {
			t.Errorf("--jobs %s: isolation %q, want the container's file system named", jobs, rep.Isolation)
		}
		if jobs == "2" && len(rep.Steps) > 0 && rep.Steps[len(rep.Steps)-1].Round == 0 {
			t.Errorf("--jobs 2: the runs have no rounds")
		}
	}
	if after := containerState(t, bad); after != before {
		t.Errorf("the container's files changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
