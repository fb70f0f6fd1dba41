package containers

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// goodConf and badConf are the config files of the good and the bad
// container: fig79 accepts the first and rejects the second.
const (
	goodConf = "key=good\n"
	badConf  = "nokey\n"
)

// dockerPair makes two running containers, good and bad, of images that
// differ only in /etc/app.conf; both have fig79 (static) as /bin/app,
// PATH=/bin and the working directory /etc.
func dockerPair(t *testing.T) (good, bad string) {
	t.Helper()
	requireTracing(t)
	testutil.Require(t, testutil.Docker)
	root := testutil.BusyboxRoot(t, testutil.BuildC(t, "fig79.c", true))
	root.Files["etc/app.conf"] = []byte(goodConf)
	goodImage := testutil.ImportImage(t, root, "/etc")
	root.Files["etc/app.conf"] = []byte(badConf)
	badImage := testutil.ImportImage(t, root, "/etc")
	return testutil.StartContainer(t, goodImage, "good"), testutil.StartContainer(t, badImage, "bad")
}

// TestContainerLocate records `app app.conf` in the good container and
// locates it in the bad one: the culprit is the open (or read) of
// /etc/app.conf, as the container names it. The command is looked up in the container's
// PATH (there is no app on the host) and its relative path resolves in
// the container's working directory.
func TestContainerLocate(t *testing.T) {
	good, bad := dockerPair(t)
	if out := testutil.RunDocker(t, nil, "exec", good, "app", "app.conf"); !strings.Contains(out, "key = good") {
		t.Fatalf("docker exec %s app app.conf printed %q: the good container is not good", good, out)
	}
	trace := t.TempDir() + "/good.envb"
	r := mustExit(t, 0, "record", "-q", "--container", good, "-o", trace, "--", "app", "app.conf")
	if !strings.Contains(string(r.Stdout), "fig79: key = good") {
		t.Errorf("the recorded run did not read the good container's config:\n%s", r)
	}

	h := header(t, trace)
	if c, _ := h["container"].(string); !strings.HasPrefix(c, "container "+good+" (") {
		t.Errorf("trace header container %q, want %q and its id", c, "container "+good)
	}
	if h["cwd"] != "/etc" {
		t.Errorf("trace header cwd %q, want the container's working directory /etc", h["cwd"])
	}
	text := mustExit(t, 0, "show", trace)
	if !strings.Contains(string(text.Stdout), "# ran in: container "+good) {
		t.Errorf("show does not say where the trace was recorded:\n%s", text.Stdout)
	}

	tr := readTrace(t, trace)
	var reads int
	for _, c := range tr.Calls {
		if strings.Contains(c.Path, "/var/lib/docker") || strings.Contains(c.Path, "overlay") {
			t.Errorf("call %s names a host path: want the container's paths", c)
		}
		if c.Syscall == "read" && c.Path == "/etc/app.conf" {
			reads++
		}
	}
	if reads != 1 {
		t.Errorf("%d reads of /etc/app.conf in the trace, want 1:\n%v", reads, tr.Calls)
	}

	if v, d := replayVerdict(t, "none", "--container", bad, trace, "--", "app", "app.conf"); v != "fail" || d != "exit status 1" {
		t.Errorf("replay with nothing replayed in %s: %s (%s), want fail (exit status 1)", bad, v, d)
	}
	if v, d := replayVerdict(t, "all", "--container", bad, trace, "--", "app", "app.conf"); v != "pass" {
		t.Errorf("replay with everything replayed in %s: %s (%s), want pass", bad, v, d)
	}

	rep := locate(t, "--container", bad, trace, "--", "app", "app.conf")
	if rep.Status != "located" || rep.Culprit == nil {
		t.Fatalf("locate: status %q (%s), want located", rep.Status, rep.Message)
	}
	if c := rep.Culprit; !servedOrRead(c.Syscall) || c.Path != "/etc/app.conf" {
		t.Errorf("culprit %s %s (%s), want the open or read of /etc/app.conf", c.Syscall, c.Path, c.Call)
	}
}

// servedOrRead reports whether a culprit of a configuration whose
// content differs is as expected: the open, whose replay hands out the
// good file where the trace keeps it (record keeps the files a command
// reads, in a container too), or the read of it where it does not.
func servedOrRead(syscall string) bool { return syscall == "openat" || syscall == "read" }

// TestContainerErrors checks the errors that name a container that
// cannot be joined: they say what is wrong and exit 2 (bad usage).
func TestContainerErrors(t *testing.T) {
	requireTracing(t)
	testutil.Require(t, testutil.Docker)
	root := testutil.BusyboxRoot(t, testutil.BuildC(t, "fig79.c", true))
	image := testutil.ImportImage(t, root, "/")
	stopped := testutil.UniqueName(t, "stopped")
	t.Cleanup(func() { testutil.DockerQuiet("rm", "-f", stopped) })
	testutil.RunDocker(t, nil, "create", "--network", "none", "--name", stopped, image, "sleep", "3600")
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"no such container", []string{"record", "--container", "envbisect-test-nosuch", "-o", dir + "/a.envb", "--", "app"},
			[]string{"no such container", "envbisect-test-nosuch", "docker ps"}},
		{"not running", []string{"record", "--container", stopped, "-o", dir + "/b.envb", "--", "app"},
			[]string{"not running", stopped, "docker start"}},
		{"locate, no such container", []string{"locate", "--container", "envbisect-test-nosuch", dir + "/c.envb", "--", "app"},
			[]string{"no such container"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := mustExit(t, 2, tc.args...)
			for _, w := range tc.want {
				if !strings.Contains(string(r.Stderr), w) {
					t.Errorf("stderr does not say %q:\n%s", w, r)
				}
			}
		})
	}
}

// TestContainerLikeDockerExec runs a script that prints where it runs
// (its namespaces, cgroup, host name, working directory, environment) under
// record --container and with docker exec: both must print the same.
func TestContainerLikeDockerExec(t *testing.T) {
	good, _ := dockerPair(t)
	script := `for n in mnt pid net uts ipc cgroup; do readlink /proc/self/ns/$n; done; grep '^0::' /proc/self/cgroup; hostname; pwd; export -p`
	want := testutil.RunDocker(t, nil, "exec", good, "sh", "-c", script)
	r := mustExit(t, 0, "record", "-q", "--container", good, "-o", t.TempDir()+"/t.envb", "--", "sh", "-c", script)
	if got := strings.TrimSpace(string(r.Stdout)); got != want {
		t.Errorf("under envbisect record --container the script printed\n%s\nand under docker exec\n%s", got, want)
	}
}
