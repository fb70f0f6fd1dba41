package containers

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// identityProbe prints, between marker lines, what makes a process's
// identity: its ids, groups, capability sets, no_new_privs and seccomp
// state, its resource limits, id(1) and its security label.
const identityProbe = `echo ==begin; grep -E '^(Uid|Gid|Groups|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp|Seccomp_filters):' /proc/self/status; ` +
	`ulimit -a; id; cat /proc/self/attr/current 2>/dev/null; echo; echo ==end`

// TestContainerExecSpecLikeDockerExec runs identityProbe with docker exec
// and under envbisect (record, and replay --prefix none) in containers
// started with non-default settings of each kind, as each user: both must
// print the same, field by field.
func TestContainerExecSpecLikeDockerExec(t *testing.T) {
	requireDockerTracing(t)
	image := testutil.ImportImage(t, identityRoot(t), "/")
	containers := map[string][]string{
		"app, nnp, seccomp": {"--user", "1000:1000", "--group-add", "extra", "--cap-drop", "CHOWN", "--cap-add", "NET_ADMIN",
			"--ulimit", "nofile=64:128", "--security-opt", "no-new-privileges", "--security-opt", "seccomp=" + denyProfile(t, 13, "mkdir", "mkdirat")},
		"root, few caps": {"--cap-drop", "ALL", "--cap-add", "SETUID", "--cap-add", "SETGID", "--cap-add", "DAC_OVERRIDE",
			"--ulimit", "nproc=500:600", "--group-add", "ssl"},
	}
	dir := t.TempDir()
	for what, flags := range containers {
		c := startWith(t, image, "identity", flags...)
		for _, user := range []string{"", "root", "app", "0:1500", "1234"} {
			t.Run(what+"/user="+user, func(t *testing.T) {
				var userArgs []string
				if user != "" {
					userArgs = []string{"--user", user}
				}
				want := between(testutil.RunDocker(t, nil, append(append([]string{"exec"}, userArgs...), c, "sh", "-c", identityProbe)...)+"\n", "==begin", "==end")
				if want == "" {
					t.Fatalf("docker exec printed nothing between the markers")
				}
				trace := dir + "/" + strings.NewReplacer(" ", "", ",", "", ":", "").Replace(what+user) + ".envb"
				args := append(append([]string{"record", "-q", "-o", trace, "--container", c}, userArgs...), "--", "sh", "-c", identityProbe)
				r := mustExit(t, 0, args...)
				if got := between(string(r.Stdout), "==begin", "==end"); got != want {
					t.Errorf("under envbisect record the probe printed\n%s\nand under docker exec\n%s", got, want)
				}
				args = append(append([]string{"replay", "-q", "--prefix", "none", "--container", c}, userArgs...), trace, "--", "sh", "-c", identityProbe)
				r = envbisect(t, args...)
				if got := between(string(r.Stdout), "==begin", "==end"); got != want {
					t.Errorf("under envbisect replay --prefix none the probe printed\n%s\nand under docker exec\n%s", got, want)
				}
			})
		}
	}
}

// TestContainerSeccompDeniedCallSeen: a call the container's seccomp
// profile denies with an errno is in the trace with that errno (the
// profile's RET_ERRNO would otherwise outrank the tracer's RET_TRACE and
// hide it), and locate finds it as the culprit between a container
// without the profile and one with it.
func TestContainerSeccompDeniedCallSeen(t *testing.T) {
	requireDockerTracing(t)
	image := testutil.ImportImage(t, identityRoot(t), "/")
	good := startWith(t, image, "good")
	bad := startWith(t, image, "bad", "--security-opt", "seccomp="+denyProfile(t, 13, "mkdir", "mkdirat"))
	dir := t.TempDir()
	cmd := []string{"--", "mkdir", "/tmp/made"}

	mustExit(t, 1, append([]string{"record", "-q", "-o", dir + "/bad.envb", "--container", bad}, cmd...)...)
	var denied bool
	for _, c := range readTrace(t, dir+"/bad.envb").Calls {
		if (c.Syscall == "mkdir" || c.Syscall == "mkdirat") && c.Path == "/tmp/made" {
			if c.Errno != "EACCES" {
				t.Errorf("%s: want EACCES, what the profile answers", c)
			}
			denied = true
		}
	}
	if !denied {
		t.Errorf("the denied mkdir of /tmp/made is not in the trace")
	}

	mustExit(t, 0, append([]string{"record", "-q", "-o", dir + "/good.envb", "--container", good}, cmd...)...)
	rep := locate(t, append([]string{"--container", bad, dir + "/good.envb"}, cmd...)...)
	if rep.Status != "located" || rep.Culprit == nil {
		t.Fatalf("locate: status %q (%s), want located", rep.Status, rep.Message)
	}
	if c := rep.Culprit; !strings.HasPrefix(c.Syscall, "mkdir") || c.Path != "/tmp/made" {
		t.Errorf("culprit %s %s (%s), want the mkdir of /tmp/made", c.Syscall, c.Path, c.Call)
	}
}
