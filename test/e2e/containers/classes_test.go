package containers

import (
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/scenarios"
	"github.com/envbisect/envbisect/internal/testutil"
)

// identityClass is one class of difference between a good and a bad
// container of the same image that only the process's identity or
// limits show: they differ in docker run flags.
type identityClass struct {
	name      string
	good, bad []string // docker run flags
	setup     string   // run as root in both containers first (sh -c)
	cmd       []string
	// The culprit: a start item (kind and name, and in Docker's words
	// when docker is set), or a call (syscall and path) with the errno it
	// gets here.
	startKind, startName, docker string
	syscall, path, errno         string
	// unapplied, when set, is what the item that differs would grant:
	// the report lists it as not applied, saying so.
	unapplied string
}

// TestContainerIdentityClasses: for each class, the command passes with
// docker exec in the good container and fails in the bad one; recorded
// in the good and located in the bad, the culprit is the exact item that
// differs (the groups, the rlimit, no_new_privs set in the good
// container only), or, where giving the good value back would grant more
// than the bad container does (uid 0 in a container run as 1000), the
// call that fails here, with the item listed as not applied. A bounding
// set with a capability the bad container dropped is the same case:
// TestContainerCapDropNamed.
func TestContainerIdentityClasses(t *testing.T) {
	requireDockerTracing(t)
	image := testutil.ImportImage(t, identityRoot(t), "/")
	classes := []identityClass{
		{name: "--user", good: []string{"--user", "0"}, bad: []string{"--user", "1000:1000"},
			setup: "echo s3cret > /etc/secret && chmod 600 /etc/secret", cmd: []string{"cat", "/etc/secret"},
			syscall: "open", path: "/etc/secret", errno: "EACCES", unapplied: "uid 0 (root)"},
		{name: "--group-add", good: []string{"--user", "1000", "--group-add", "extra"}, bad: []string{"--user", "1000"},
			setup: "echo grp > /etc/grpfile && chown 0:1600 /etc/grpfile && chmod 640 /etc/grpfile", cmd: []string{"cat", "/etc/grpfile"},
			startKind: "creds", startName: "groups"},
		{name: "--ulimit nofile", good: []string{"--ulimit", "nofile=1024:1024"}, bad: []string{"--ulimit", "nofile=12:1024"},
			cmd: []string{"sh", "-c", "exec 20</etc/passwd && echo opened"}, startKind: "rlimit", startName: "RLIMIT_NOFILE"},
		// A command that needs no_new_privs set (it reads its own status):
		// the good container sets it, and a run can set it here too.
		{name: "--security-opt no-new-privileges", good: []string{"--security-opt", "no-new-privileges"},
			cmd:       []string{"sh", "-c", `while read k v; do [ "$k $v" = "NoNewPrivs: 1" ] && exit 0; done </proc/self/status; exit 1`},
			startKind: "no_new_privs"},
	}
	for _, tc := range classes {
		t.Run(tc.name, func(t *testing.T) {
			good := startWith(t, image, "good", tc.good...)
			bad := startWith(t, image, "bad", tc.bad...)
			for _, c := range []string{good, bad} {
				if tc.setup != "" {
					testutil.RunDocker(t, nil, "exec", "--user", "0", c, "sh", "-c", tc.setup)
				}
			}
			if code := dockerExitCode(append([]string{"exec", bad}, tc.cmd...)...); code == 0 {
				t.Fatalf("docker exec %s %s passes: the bad container is not bad", bad, strings.Join(tc.cmd, " "))
			}
			trace := t.TempDir() + "/good.envb"
			mustExit(t, 0, append([]string{"record", "-q", "--container", good, "-o", trace, "--"}, tc.cmd...)...)
			rep := locate(t, append([]string{"--container", bad, trace, "--"}, tc.cmd...)...)
			if rep.Status != "located" || rep.Culprit == nil {
				t.Fatalf("locate: status %q (%s), want located", rep.Status, rep.Message)
			}
			c := rep.Culprit
			if tc.startKind != "" {
				if c.Start == nil || c.Start.Kind != tc.startKind || c.Start.Name != tc.startName {
					t.Errorf("culprit %+v (%s), want the start item %s %s", c.Start, c.Call, tc.startKind, tc.startName)
				} else if tc.docker != "" && c.Start.Docker != tc.docker {
					t.Errorf("culprit %s %s said as %q, want %q", c.Start.Kind, c.Start.Name, c.Start.Docker, tc.docker)
				}
				return
			}
			if c.Start != nil || !strings.HasPrefix(c.Syscall, tc.syscall) || c.Path != tc.path || c.Here.Errno != tc.errno {
				t.Errorf("culprit %s %s = %s (%s), want %s %s = %s", c.Syscall, c.Path, c.Here.Errno, c.Call, tc.syscall, tc.path, tc.errno)
			}
			if !slices.ContainsFunc(rep.Unapplied, func(it scenarios.UnappliedItem) bool {
				return strings.Contains(it.Why, "it would grant "+tc.unapplied)
			}) {
				t.Errorf("unapplied %+v: none is said to grant %s", rep.Unapplied, tc.unapplied)
			}
		})
	}
}
