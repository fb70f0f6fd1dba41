package containers

import (
	"encoding/json"
	"testing"
)

// TestContainerLocateMaterialized: the object search in a container
// (issue 27, deliver 5): the good and the bad container differ only in
// /etc/app.conf; locate --materialize inspects the bad container's root
// against the recording, puts the good file in place inside it, in the
// mount namespace each run joins, and names the file, as the container
// names it, with its validated fix and diff.
func TestContainerLocateMaterialized(t *testing.T) {
	good, bad := dockerPair(t)
	trace := t.TempDir() + "/good.envb"
	mustExit(t, 0, "record", "-q", "--container", good, "-o", trace, "--", "app", "app.conf")
	r := mustExit(t, 0, "locate", "--materialize", "--json", "-q", "--container", bad, trace, "--", "app", "app.conf")
	var rep struct {
		Status    string `json:"status"`
		Mechanism string `json:"mechanism"`
		Objects   struct {
			Causes []struct {
				Path string `json:"path"`
				Fix  []struct {
					Text string   `json:"text"`
					Path string   `json:"path"`
					Diff []string `json:"diff"`
				} `json:"fix"`
			} `json:"causes"`
			Fix struct {
				Validated bool `json:"validated"`
			} `json:"fix"`
		} `json:"objects"`
	}
	if err := json.Unmarshal(r.Stdout, &rep); err != nil {
		t.Fatalf("locate --json: %v\n%s", err, r)
	}
	if rep.Status != "located" || rep.Mechanism != "materialized" || len(rep.Objects.Causes) != 1 {
		t.Fatalf("status %q, mechanism %q, causes %+v; want one cause located by the object search\n%s", rep.Status, rep.Mechanism, rep.Objects.Causes, r)
	}
	c := rep.Objects.Causes[0]
	if c.Path != "/etc/app.conf" || len(c.Fix) != 1 || c.Fix[0].Path != "/etc/app.conf" || !rep.Objects.Fix.Validated {
		t.Errorf("cause %+v, validated %v; want /etc/app.conf restored, validated", c, rep.Objects.Fix.Validated)
	}
	want := map[string]bool{"-" + "key=good": false, "+" + "nokey": false}
	for _, l := range c.Fix[0].Diff {
		if _, ok := want[l]; ok {
			want[l] = true
		}
	}
	for l, seen := range want {
		if !seen {
			t.Errorf("the fix's diff lacks %q: %q", l, c.Fix[0].Diff)
		}
	}
}
