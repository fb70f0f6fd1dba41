package containers

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// identityFields are the lines of /proc/self/status that make a
// process's privileges.
var identityFields = []string{"Uid:", "Gid:", "CapInh:", "CapPrm:", "CapEff:", "CapBnd:", "CapAmb:", "NoNewPrivs:"}

// statusFields returns the identityFields lines of a probe's output.
func statusFields(out string) map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		for _, f := range identityFields {
			if strings.HasPrefix(line, f) {
				m[f] = strings.Join(strings.Fields(strings.TrimPrefix(line, f)), " ")
			}
		}
	}
	return m
}

// TestHostTraceNeverRaisesContainer: a trace recorded on the host as
// root, replayed into containers that run as user 1000 without
// capabilities, or as root with only CAP_CHOWN, gives the command the
// container's ids and capability sets, as docker exec does, not the
// trace's (uid 0, every capability); replay says which recorded items it
// did not apply and what they would have granted. The calls after the
// first run live, so the probe reads the identity the run really has.
func TestHostTraceNeverRaisesContainer(t *testing.T) {
	requireDockerTracing(t)
	image := testutil.ImportImage(t, identityRoot(t), "/")
	dir := t.TempDir()
	host := dir + "/host.envb"
	cmd := []string{"--", "sh", "-c", identityProbe}
	r := mustExit(t, 0, append([]string{"record", "-q", "-o", host}, cmd...)...)
	if got := statusFields(between(string(r.Stdout), "==begin", "==end")); got["Uid:"] != "0 0 0 0" {
		t.Fatalf("the host recording ran as %q, not root: the test needs a root recording", got["Uid:"])
	}
	for what, flags := range map[string][]string{
		"user, no caps":    {"--user", "1000:1000", "--cap-drop", "ALL"},
		"root, only chown": {"--cap-drop", "ALL", "--cap-add", "CHOWN"},
	} {
		t.Run(what, func(t *testing.T) {
			c := startWith(t, image, "bound", flags...)
			want := statusFields(between(testutil.RunDocker(t, nil, "exec", c, "sh", "-c", identityProbe)+"\n", "==begin", "==end"))
			if len(want) != len(identityFields) {
				t.Fatalf("docker exec printed %v, not every identity field", want)
			}
			r := envbisect(t, append([]string{"replay", "--prefix", "1", "--container", c, "--force", host}, cmd...)...)
			got := statusFields(between(string(r.Stdout), "==begin", "==end"))
			for _, f := range identityFields {
				if got[f] != want[f] {
					t.Errorf("%s under replay of the host trace %q, under docker exec %q", f, got[f], want[f])
				}
			}
			stderr := string(r.Stderr)
			if !strings.Contains(stderr, "differs here and could not be applied") || !strings.Contains(stderr, "bounding set") ||
				!strings.Contains(stderr, "it would grant") || !strings.Contains(stderr, "CAP_SYS_ADMIN") {
				t.Errorf("replay did not list the bounding set as not applied, with what it would grant:\n%s", stderr)
			}
			if flags[0] == "--user" && !strings.Contains(stderr, "uid 0 (root)") {
				t.Errorf("replay did not say the uid would grant root:\n%s", stderr)
			}
		})
	}
}

// TestHostTraceLocatesInContainer: the main use, a recording made on the
// host as root (a laptop) located in a CI container that runs as user
// 1000 without capabilities. fig79 (static) is bound into the container
// at its host path, and its configuration sits at the same path on both
// sides, well formed on the host only. locate names the configuration
// and lists the recorded uid and capability sets as not applied, saying
// they would grant root and the capabilities the container lacks: the
// identity a run may not take never stops the rest from being located.
func TestHostTraceLocatesInContainer(t *testing.T) {
	requireDockerTracing(t)
	app := testutil.BuildC(t, "fig79.c", true)
	conf := t.TempDir() + "/app.conf"
	if err := os.WriteFile(conf, []byte(goodConf), 0o644); err != nil {
		t.Fatal(err)
	}
	root := identityRoot(t)
	root.Files[strings.TrimPrefix(conf, "/")] = []byte(badConf)
	image := testutil.ImportImage(t, root, "/")
	bad := startWith(t, image, "bad", "--user", "1000:1000", "--cap-drop", "ALL", "-v", app+":"+app+":ro")
	cmd := []string{"--", app, conf}
	if code := dockerExitCode("exec", bad, app, conf); code == 0 {
		t.Fatalf("fig79 passes in %s: the container is not bad", bad)
	}
	trace := t.TempDir() + "/host.envb"
	mustExit(t, 0, append([]string{"record", "-q", "-o", trace}, cmd...)...)
	r := mustExit(t, 0, append([]string{"locate", "--json", "-q", "--container", bad, trace}, cmd...)...)
	var rep identityReport
	if err := json.Unmarshal(r.Stdout, &rep); err != nil {
		t.Fatalf("locate --json: %v\n%s", err, r)
	}
	if c := rep.Culprit; rep.Status != "located" || c == nil || !servedOrRead(c.Syscall) || c.Path != conf {
		t.Fatalf("locate: status %q (%s), culprit %+v; want the open or read of %s", rep.Status, rep.Message, rep.Culprit, conf)
	}
	for _, want := range []struct{ kind, name, grants string }{
		{"creds", "uid", "uid 0 (root)"}, {"caps", "bounding", "CAP_SYS_ADMIN"},
	} {
		found := false
		for _, it := range rep.Unapplied {
			if it.Kind == want.kind && it.Name == want.name {
				found = strings.Contains(it.Why, "it would grant") && strings.Contains(it.Why, want.grants)
			}
		}
		if !found {
			t.Errorf("unapplied %+v: want %s %s not applied because it would grant %s", rep.Unapplied, want.kind, want.name, want.grants)
		}
	}
}
