package containers

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestContainerLocateEBPF records in the good container with the eBPF
// backend and locates in the bad one: the same culprit as with ptrace.
func TestContainerLocateEBPF(t *testing.T) {
	testutil.Require(t, testutil.EBPF)
	good, bad := dockerPair(t)
	trace := t.TempDir() + "/good.envb"
	r := mustExit(t, 0, "record", "-q", "--backend", "ebpf", "--container", good, "-o", trace, "--", "app", "app.conf")
	if !strings.Contains(string(r.Stdout), "fig79: key = good") {
		t.Errorf("the recorded run did not read the good container's config:\n%s", r)
	}
	if h := header(t, trace); h["backend"] != "ebpf" || !strings.HasPrefix(h["container"].(string), "container "+good) {
		t.Errorf("header backend %v, container %v: want ebpf and %s", h["backend"], h["container"], good)
	}
	rep := locate(t, "--container", bad, trace, "--", "app", "app.conf")
	if rep.Status != "located" || rep.Culprit == nil {
		t.Fatalf("locate: status %q (%s), want located", rep.Status, rep.Message)
	}
	if c := rep.Culprit; c.Syscall != "read" || c.Path != "/etc/app.conf" {
		t.Errorf("culprit %s %s (%s), want the read of /etc/app.conf", c.Syscall, c.Path, c.Call)
	}
}

// TestContainerAttach observes a running container with --attach: the
// trace holds what its processes did (a loop copying /etc/app.conf, by
// the container's paths), is marked an observation, and locate refuses
// it with an explanation.
func TestContainerAttach(t *testing.T) {
	requireTracing(t)
	testutil.Require(t, testutil.Docker, testutil.EBPF)
	root := testutil.BusyboxRoot(t, testutil.BuildC(t, "fig79.c", true))
	root.Files["etc/app.conf"] = []byte(goodConf)
	image := testutil.ImportImage(t, root, "/etc")
	name := testutil.UniqueName(t, "watched")
	t.Cleanup(func() { testutil.DockerQuiet("rm", "-f", name) })
	testutil.RunDocker(t, nil, "run", "-d", "--network", "none", "--name", name, image,
		"sh", "-c", "while :; do cat /etc/app.conf >/dev/null; sleep 0.1; done")

	trace := t.TempDir() + "/obs.envb"
	r := mustExit(t, 0, "record", "--backend", "ebpf", "--container", name, "--attach", "--duration", "2s", "-o", trace)
	if !strings.Contains(string(r.Stderr), "observing") || !strings.Contains(string(r.Stderr), "observed") {
		t.Errorf("record --attach does not say what it observed:\n%s", r)
	}
	if h := header(t, trace); h["observed"] != true || h["backend"] != "ebpf" {
		t.Errorf("header observed %v, backend %v: want an eBPF observation trace", h["observed"], h["backend"])
	}
	var opens, reads int
	calls := readTrace(t, trace).Calls
	for _, c := range calls {
		if strings.Contains(c.Path, "/var/lib/docker") || strings.Contains(c.Path, "overlay") {
			t.Errorf("call %s names a host path: want the container's paths", c)
		}
		switch {
		case c.Syscall == "open" || c.Syscall == "openat":
			if c.Path == "/etc/app.conf" {
				opens++
			}
		case (c.Syscall == "read" || c.Syscall == "sendfile") && c.Ret != nil && *c.Ret == int64(len(goodConf)):
			reads++ // busybox cat copies with sendfile
		}
	}
	// Two seconds of a loop of 0.1 s: some ten rounds, at least a few.
	if opens < 3 || reads < 3 {
		t.Errorf("%d opens and %d reads of /etc/app.conf in 2 s of observation, want several of each; the first calls:\n%v",
			opens, reads, calls[:min(len(calls), 60)])
	}
	r = envbisect(t, "locate", trace, "--", "cat", "/etc/app.conf")
	if r.Code != 1 || !strings.Contains(string(r.Stderr), "observation trace") || !strings.Contains(string(r.Stderr), "no command to re-run") {
		t.Errorf("locate of an observation trace: want exit 1 and why:\n%s", r)
	}
}
