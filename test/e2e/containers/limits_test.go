package containers

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestContainerNofileLimitNamed: busybox paste opens 80 files before it
// reads any. The good container gives it 1024 open files; the bad one was
// started with --ulimit nofile=64:64 and without CAP_SYS_RESOURCE
// (Docker's default), so neither it nor a run may raise the hard limit,
// although envbisect on the host could. locate lists the limit as not
// applied, saying the container's hard limit and docker run's flag for
// the good value, and names it as the cause of the first EMFILE, on the
// same file paste names under docker exec: the command gets descriptors
// 0, 1 and 2 only, as docker exec gives, whatever envbisect holds.
func TestContainerNofileLimitNamed(t *testing.T) {
	requireDockerTracing(t)
	root := identityRoot(t)
	root.Symlinks["bin/paste"] = "busybox"
	var files []string
	for i := 1; i <= 80; i++ {
		name := fmt.Sprintf("data/f%d", i)
		root.Files[name] = []byte(fmt.Sprintf("line %d\n", i))
		files = append(files, "/"+name)
	}
	image := testutil.ImportImage(t, root, "/")
	good := startWith(t, image, "good", "--ulimit", "nofile=1024:1024")
	bad := startWith(t, image, "bad", "--ulimit", "nofile=64:64")
	cmd := append([]string{"paste"}, files...)
	out, err := exec.Command("docker", append([]string{"exec", bad}, cmd...)...).CombinedOutput()
	first := tooMany(string(out))
	if err == nil || first == "" {
		t.Fatalf("paste under docker exec in %s (%v) named no file it could not open:\n%s", bad, err, out)
	}
	trace := t.TempDir() + "/good.envb"
	mustExit(t, 0, append([]string{"record", "-q", "--container", good, "-o", trace, "--"}, cmd...)...)
	// Located at an open, or not (a replayed open's stand-in needs a
	// descriptor too): either way the limit is the cause.
	r := envbisect(t, append([]string{"locate", "--json", "-q", "--container", bad, trace, "--"}, cmd...)...)
	if r.Code != 0 && r.Code != 3 {
		t.Fatalf("locate: want exit status 0 or 3 (a report):\n%s", r)
	}
	var rep identityReport
	if err := json.Unmarshal(r.Stdout, &rep); err != nil {
		t.Fatalf("locate --json: %v\n%s", err, r)
	}
	var limit *identityItem
	for i := range rep.Unapplied {
		if rep.Unapplied[i].Kind == "rlimit" && rep.Unapplied[i].Name == "RLIMIT_NOFILE" {
			limit = &rep.Unapplied[i]
		}
	}
	if limit == nil {
		t.Fatalf("status %q (%s): RLIMIT_NOFILE not listed as unapplied: %+v", rep.Status, rep.Message, rep.Unapplied)
	}
	if limit.Good == nil || *limit.Good != "1024 1024" || limit.Here == nil || *limit.Here != "64 64" {
		t.Errorf("unapplied RLIMIT_NOFILE good %v here %v, want 1024 1024 and 64 64", limit.Good, limit.Here)
	}
	if !strings.Contains(limit.Why, bad) || !strings.Contains(limit.Why, "hard limit of 64") || strings.Contains(limit.Why, "envbisect does not have") {
		t.Errorf("why %q: want the container's hard limit of 64, not a claim about envbisect's capabilities", limit.Why)
	}
	if !strings.Contains(limit.Remedy, "docker run --ulimit nofile=1024:1024") {
		t.Errorf("remedy %q: want docker run --ulimit nofile=1024:1024", limit.Remedy)
	}
	c := rep.Cause
	if c == nil || c.Item.Kind != "rlimit" || c.Item.Name != "RLIMIT_NOFILE" {
		t.Fatalf("status %q (%s): cause %+v, want RLIMIT_NOFILE", rep.Status, rep.Message, c)
	}
	if !strings.Contains(c.Call, `"`+first+`"`) || !strings.Contains(c.Call, "EMFILE") {
		t.Errorf("cause's evidence %q: want the open of %s failing with EMFILE, as under docker exec", c.Call, first)
	}
}

// tooMany returns the file named by paste's first "Too many open files"
// message in out.
func tooMany(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, "paste: "); ok && strings.HasSuffix(rest, ": Too many open files") {
			return strings.TrimSuffix(rest, ": Too many open files")
		}
	}
	return ""
}
