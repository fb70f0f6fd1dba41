package containers

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// identityRoot is a busybox root with users and groups to run as: root,
// app (1000:1000, listed in group ssl, 1500), the group extra (1600), and
// the busybox tools the identity tests use.
func identityRoot(t *testing.T) *testutil.Rootfs {
	t.Helper()
	root := testutil.BusyboxRoot(t, "/bin/busybox")
	for _, tool := range []string{"id", "mkdir", "ls", "touch", "chown", "cp", "head", "seq", "echo", "rm"} {
		root.Symlinks["bin/"+tool] = "busybox"
	}
	root.Files["etc/passwd"] = []byte("root:x:0:0:root:/root:/bin/sh\napp:x:1000:1000:app:/home/app:/bin/sh\n")
	root.Files["etc/group"] = []byte("root:x:0:\napp:x:1000:\nssl:x:1500:app\nextra:x:1600:\n")
	return root
}

// startWith runs a container of image that sleeps, with the docker run
// flags given, without a network, and removes it when the test ends.
func startWith(t *testing.T, image, what string, flags ...string) string {
	t.Helper()
	name := testutil.UniqueName(t, what)
	t.Cleanup(func() { testutil.DockerQuiet("rm", "-f", name) })
	args := append([]string{"run", "-d", "--network", "none", "--name", name}, flags...)
	testutil.RunDocker(t, nil, append(args, image, "sleep", "3600")...)
	return name
}

// denyProfile writes a Docker seccomp profile that allows every call but
// the ones named, which fail with errno, and returns its path.
func denyProfile(t *testing.T, errno int, calls ...string) string {
	t.Helper()
	p := t.TempDir() + "/seccomp.json"
	names := `"` + strings.Join(calls, `","`) + `"`
	profile := `{"defaultAction":"SCMP_ACT_ALLOW","syscalls":[{"names":[` + names + `],"action":"SCMP_ACT_ERRNO","errnoRet":` +
		strconv.Itoa(errno) + `}]}`
	if err := os.WriteFile(p, []byte(profile), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// requireDockerTracing gates a test on tracing and a Docker daemon.
func requireDockerTracing(t *testing.T) {
	t.Helper()
	requireTracing(t)
	testutil.Require(t, testutil.Docker)
}

// between returns the text of out between the lines begin and end.
func between(out, begin, end string) string {
	_, rest, ok := strings.Cut(out, begin+"\n")
	if !ok {
		return ""
	}
	text, _, _ := strings.Cut(rest, end+"\n")
	return text
}

// dockerExitCode runs the docker CLI and returns its exit status.
func dockerExitCode(args ...string) int {
	cmd := exec.Command("docker", args...)
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		return -1
	}
	return 0
}
