package containers

import (
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

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

// TestContainerFileCapabilityOutsideBounding: a binary of the test's own
// carries cap_net_raw+ep; the bad container's bounding set lacks
// CAP_NET_RAW (--cap-drop NET_RAW), so its exec fails with EPERM there.
// CAP_NET_RAW is within envbisect's own bounding set (the test runs as
// root on the host), so a run that replays the bounding set gives the
// command the good sets and it starts: the run with nothing replayed
// fails (it did not start, the exec's EPERM explained by the file's
// capability), and locate names the bounding set, said as --cap-drop
// NET_RAW. Where envbisect's own bounding set lacked CAP_NET_RAW, no
// run could give it back and locate would list it as differing here and
// not applied instead (replay's TestSpecReplayable); this test needs it.
func TestContainerFileCapabilityOutsideBounding(t *testing.T) {
	requireDockerTracing(t)
	if own, err := launch.OwnBounding(); err != nil || own&(1<<unix.CAP_NET_RAW) == 0 {
		t.Fatalf("this test needs CAP_NET_RAW in its own bounding set (%x, %v)", own, err)
	}
	root := identityRoot(t)
	app, err := os.ReadFile(testutil.BuildC(t, "capprog.c", true))
	if err != nil {
		t.Fatal(err)
	}
	root.Files["bin/capprog"], root.Exec["bin/capprog"] = app, true
	image := testutil.ImportImage(t, root, "/")
	good := startWith(t, image, "good", "--user", "1000")
	bad := startWith(t, image, "bad", "--user", "1000", "--cap-drop", "NET_RAW")
	for _, c := range []string{good, bad} {
		setFileCaps(t, c, "/bin/capprog", 1<<unix.CAP_NET_RAW)
	}
	if code := dockerExitCode("exec", bad, "capprog"); code == 0 {
		t.Fatalf("docker exec %s capprog passes: the bad container is not bad", bad)
	}
	trace := t.TempDir() + "/good.envb"
	if r := mustExit(t, 0, "record", "-q", "--container", good, "-o", trace, "--", "capprog"); !strings.Contains(string(r.Stdout), "capprog ran") {
		t.Fatalf("capprog did not run in the good container:\n%s", r)
	}
	rep := locate(t, "--container", bad, trace, "--", "capprog")
	if rep.Status != "located" || rep.Culprit == nil {
		t.Fatalf("locate: status %q (%s), want located", rep.Status, rep.Message)
	}
	if st := rep.Culprit.Start; st == nil || st.Kind != "caps" || st.Name != "bounding" || st.Docker != "--cap-drop NET_RAW" {
		t.Errorf("culprit %+v (%s), want the start item caps bounding, said as --cap-drop NET_RAW", st, rep.Culprit.Call)
	}
	const notStarted = "did not start: exec /bin/capprog: operation not permitted: " +
		"the file carries cap_net_raw+ep, and this process's bounding set lacks cap_net_raw"
	if len(rep.Steps) == 0 || rep.Steps[0].All || rep.Steps[0].Verdict != "fail" || rep.Steps[0].Detail != notStarted {
		t.Errorf("steps %+v: want the run with nothing replayed to fail with %q", rep.Steps, notStarted)
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
