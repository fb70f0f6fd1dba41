package containers

import (
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/testutil"
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
// locate cannot give the capability back: it lists the bounding set as
// differing here, in Docker's words, and names the capability through
// the exec's EPERM.
func TestContainerFileCapabilityOutsideBounding(t *testing.T) {
	requireDockerTracing(t)
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
	r := envbisect(t, "locate", "-q", "--container", bad, trace, "--", "capprog")
	if r.Code == 0 {
		t.Fatalf("locate exited 0 where the command cannot start:\n%s", r)
	}
	for _, want := range []string{
		"differs here and could not be applied", "caps bounding", "--cap-drop NET_RAW",
		"operation not permitted: the file carries cap_net_raw+ep, and this process's bounding set lacks cap_net_raw",
	} {
		if !strings.Contains(string(r.Stderr), want) {
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
