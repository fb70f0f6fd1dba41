package materialize

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestMaterializeUnplacedMayBeTheCause: coreutils stat checks that a
// marker file is there and empty; the good run only stat'ed it, so the
// trace keeps no content of it and no run can put it back. Here the
// marker is missing and a notes file cat reads differs too (that one a
// run can put in place, so the run with everything in place is made, and
// fails). The object search must not say that the difference is no
// object: the marker is one it could not place, listed as such; the
// call-level fallback then names the marker's stat. (Found with dash's
// `[ -e ready ]` in a polling loop under --timeout.)
func TestMaterializeUnplacedMayBeTheCause(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("stat"), testutil.Binary("cat"))
	out := testutil.InWorkNS(t, prelude+`
echo one > app/notes.txt
: > app/marker
check='cat notes.txt >/dev/null; [ "$(stat -c %s marker)" = 0 ]'
record_good sh -c "$check"
echo two > app/notes.txt
rm app/marker
locate_bad sh -c "$check"
`)
	var r struct {
		Status    string `json:"status"`
		Mechanism string `json:"mechanism"`
		Culprit   *struct {
			Path string `json:"path"`
		} `json:"culprit"`
		Objects *struct {
			Status   string `json:"status"`
			Message  string `json:"message"`
			Unplaced []struct {
				Path string `json:"path"`
				Why  string `json:"why"`
			} `json:"unplaced"`
		} `json:"objects"`
	}
	testutil.ReadJSON(t, filepath.Join(out, "report.json"), &r)
	marker := testutil.ReadText(t, out, "w") + "/app/marker"
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Fatalf("locate exited %s; want 0 (located)", code)
	}
	o := r.Objects
	if o == nil || o.Status != "still-fails" {
		t.Fatalf("objects %+v; want the object search to end still-fails", o)
	}
	if strings.Contains(o.Message, "is not an object") || !strings.Contains(o.Message, "1 that differs here could not be put in place") {
		t.Errorf("object search says %q; want it to say that one object it could not place may be the cause", o.Message)
	}
	if len(o.Unplaced) != 1 || o.Unplaced[0].Path != marker || !strings.Contains(o.Unplaced[0].Why, "does not keep its content") {
		t.Errorf("unplaced %+v; want %s, whose content the trace does not keep", o.Unplaced, marker)
	}
	if r.Culprit == nil || r.Culprit.Path != marker {
		t.Errorf("culprit %+v (mechanism %s); want the stat of %s", r.Culprit, r.Mechanism, marker)
	}
}
