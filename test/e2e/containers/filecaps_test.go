package containers

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/scenarios"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/launch"
)

// setFileCaps gives the file at path inside container c the capabilities
// caps with the effective bit (setcap CAPS+ep), through the container's
// root as the host sees it.
func setFileCaps(t *testing.T, c, path string, caps uint32) {
	t.Helper()
	pid := testutil.RunDocker(t, nil, "inspect", "-f", "{{.State.Pid}}", c)
	data := make([]byte, 20)
	binary.LittleEndian.PutUint32(data[0:], 0x02000001) // VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE
	binary.LittleEndian.PutUint32(data[4:], caps)       // permitted, low word
	if err := unix.Setxattr(fmt.Sprintf("/proc/%s/root%s", pid, path), "security.capability", data, 0); err != nil {
		t.Fatalf("setcap %s in %s: %v", path, c, err)
	}
}

// fileCapsPair starts a good container and a bad one that differ by
// --cap-drop NET_RAW, both running as user 1000 with /bin/capprog, a
// program of the test's own carrying cap_net_raw+ep, records capprog in
// the good one and returns the bad one and the trace.
func fileCapsPair(t *testing.T) (bad, trace string) {
	t.Helper()
	root := identityRoot(t)
	app, err := os.ReadFile(testutil.BuildC(t, "capprog.c", true))
	if err != nil {
		t.Fatal(err)
	}
	root.Files["bin/capprog"], root.Exec["bin/capprog"] = app, true
	image := testutil.ImportImage(t, root, "/")
	good := startWith(t, image, "good", "--user", "1000")
	bad = startWith(t, image, "bad", "--user", "1000", "--cap-drop", "NET_RAW")
	for _, c := range []string{good, bad} {
		setFileCaps(t, c, "/bin/capprog", 1<<unix.CAP_NET_RAW)
	}
	if code := dockerExitCode("exec", bad, "capprog"); code == 0 {
		t.Fatalf("docker exec %s capprog passes: the bad container is not bad", bad)
	}
	trace = t.TempDir() + "/good.envb"
	if r := mustExit(t, 0, "record", "-q", "--container", good, "-o", trace, "--", "capprog"); !strings.Contains(string(r.Stdout), "capprog ran") {
		t.Fatalf("capprog did not run in the good container:\n%s", r)
	}
	return bad, trace
}

// TestContainerFileCapabilityOutsideBounding: a binary of the test's own
// carries cap_net_raw+ep; the bad container's bounding set lacks
// CAP_NET_RAW (--cap-drop NET_RAW), so its exec fails with EPERM there.
// envbisect, root on the host, could give the capability back, but a run
// never holds more than its container (issue 26): the bounding set is
// listed as differing here and not applied, saying it would grant
// CAP_NET_RAW and that --cap-add NET_RAW gives it, and every run fails to
// start, the exec's EPERM explained by the file's capability.
func TestContainerFileCapabilityOutsideBounding(t *testing.T) {
	requireDockerTracing(t)
	if own, err := launch.OwnBounding(); err != nil || own&(1<<unix.CAP_NET_RAW) == 0 {
		t.Fatalf("this test needs CAP_NET_RAW in its own bounding set (%x, %v)", own, err)
	}
	bad, trace := fileCapsPair(t)
	r := envbisect(t, "locate", "-q", "--container", bad, trace, "--", "capprog")
	if r.Code != 3 {
		t.Fatalf("want exit status 3 (not located):\n%s", r)
	}
	listing := "CAP_NET_RAW: in the good run's bounding set, not here (here: --cap-drop NET_RAW): not applied: " +
		"it would grant CAP_NET_RAW in the bounding set, more than container " + bad
	for _, want := range []string{"replay still fails", "Differs here and could not be applied by a run:\n  " + listing,
		"start the container with --cap-add NET_RAW"} {
		if !strings.Contains(string(r.Stdout), want) {
			t.Errorf("locate does not say %q:\n%s", want, r)
		}
	}
}

// TestPidExecSpecLikeDockerExec: --pid with a container's init process
// gives the command the same identity as docker exec.
func TestPidExecSpecLikeDockerExec(t *testing.T) {
	requireDockerTracing(t)
	image := testutil.ImportImage(t, identityRoot(t), "/")
	c := startWith(t, image, "identity", "--user", "1000:1000", "--group-add", "extra", "--cap-drop", "CHOWN",
		"--ulimit", "nofile=64:128", "--security-opt", "no-new-privileges")
	pid := testutil.RunDocker(t, nil, "inspect", "-f", "{{.State.Pid}}", c)
	want := between(testutil.RunDocker(t, nil, "exec", c, "sh", "-c", identityProbe)+"\n", "==begin", "==end")
	r := mustExit(t, 0, "record", "-q", "-o", t.TempDir()+"/t.envb", "--pid", pid, "--", "sh", "-c", identityProbe)
	if got := between(string(r.Stdout), "==begin", "==end"); got != want {
		t.Errorf("under envbisect record --pid the probe printed\n%s\nand under docker exec\n%s", got, want)
	}
}

// TestContainerFileCapabilityOutsideOwnBounding: the same pair, located by
// an envbisect whose own bounding set lacks CAP_NET_RAW (started under
// setpriv --bounding-set -net_raw): no run can give the capability back,
// so the bounding set stays listed as differing here and not applied, in
// Docker's words, and every run fails to start.
func TestContainerFileCapabilityOutsideOwnBounding(t *testing.T) {
	requireDockerTracing(t)
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatalf("this test drops a capability from envbisect's bounding set with setpriv (util-linux): %v", err)
	}
	bad, trace := fileCapsPair(t)
	r := scenarios.Run(context.Background(), cmdTimeout, nil, setpriv, "--bounding-set", "-net_raw",
		testutil.Envbisect(t), "locate", "-q", "--container", bad, trace, "--", "capprog")
	if r.Err != nil || r.Code != 3 {
		t.Fatalf("want exit status 3 (not located):\n%s", r)
	}
	listing := "CAP_NET_RAW: in the good run's bounding set, not here (here: --cap-drop NET_RAW)"
	for _, want := range []string{"replay still fails", "Differs here and could not be applied by a run:\n  " + listing} {
		if !strings.Contains(string(r.Stdout), want) {
			t.Errorf("locate does not say %q:\n%s", want, r)
		}
	}
	// Both ends fail the same way: the command never starts.
	const notStarted = "did not start: exec /bin/capprog: operation not permitted: " +
		"the file carries cap_net_raw+ep, and this process's bounding set lacks cap_net_raw"
	var steps []string
	for _, line := range strings.Split(string(r.Stdout), "\n") {
		if f := strings.Fields(line); len(f) > 3 && strings.HasSuffix(line, notStarted) && f[2] == "fail" {
			steps = append(steps, f[1])
		}
	}
	if strings.Join(steps, " ") != "none all" {
		t.Errorf("steps that did not start: %v, want none and all:\n%s", steps, r)
	}
	if want := "envbisect: differs here and could not be applied by a run:\n  " + listing; !strings.Contains(string(r.Stderr), want) {
		t.Errorf("locate does not warn %q before it starts:\n%s", want, r)
	}
}
