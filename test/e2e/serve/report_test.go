package serve_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// locateReport is the part of locate's JSON report the serving tests
// look at.
type locateReport struct {
	Status          string `json:"status"`
	Message         string `json:"message"`
	Runs            int    `json:"runs"`
	ReplayableCalls int    `json:"replayable_calls"`
	StartItems      int    `json:"start_items"`
	// Mechanism and Space say which search located the culprit, over how
	// many candidates: the object search's (locate's default) or the
	// call-level search's replayable calls and start items.
	Mechanism string `json:"mechanism"`
	Space     *struct {
		Candidates int `json:"candidates"`
	} `json:"space"`
	Culprit *struct {
		Syscall string `json:"syscall"`
		Path    string `json:"path"`
		Good    struct {
			Errno string `json:"errno"`
		} `json:"good"`
		Here struct {
			Errno string `json:"errno"`
		} `json:"here"`
	} `json:"culprit"`
	NotServed []struct {
		Seq  uint64 `json:"seq"`
		Path string `json:"path"`
		Why  string `json:"why"`
	} `json:"not_served"`
}

// readLocate reads locate's JSON report from file name under dir.
func readLocate(t *testing.T, dir, name string) locateReport {
	t.Helper()
	var r locateReport
	testutil.ReadJSON(t, filepath.Join(dir, name), &r)
	return r
}

// candidates are what the search that located the culprit ran over.
func (r locateReport) candidates() int {
	if r.Mechanism == "materialized" && r.Space != nil {
		return r.Space.Candidates
	}
	return r.ReplayableCalls + r.StartItems
}

// wantCulprit fails unless r located a culprit: syscall on path (path
// ends with it), in at most ⌈log2 N⌉+3 runs for the N candidates the
// report counts (calls and start items).
func wantCulprit(t *testing.T, r locateReport, syscall, path string) {
	t.Helper()
	if r.Status != "located" || r.Culprit == nil {
		t.Fatalf("status %q (%s), want a located culprit", r.Status, r.Message)
	}
	if r.Culprit.Syscall != syscall || !strings.HasSuffix(r.Culprit.Path, path) {
		t.Errorf("culprit %s %s, want %s of %s", r.Culprit.Syscall, r.Culprit.Path, syscall, path)
	}
	n := r.candidates()
	t.Logf("located %s %s in %d runs over %d candidates", r.Culprit.Syscall, r.Culprit.Path, r.Runs, n)
	if limit := int(math.Ceil(math.Log2(float64(n)))) + 3; r.Runs > limit {
		t.Errorf("%d runs for %d candidates, want at most ⌈log2 N⌉+3 = %d", r.Runs, n, limit)
	}
	if len(r.NotServed) > 0 {
		t.Errorf("locate could not serve %+v: the trace keeps every file by default", r.NotServed)
	}
}

// fileText returns file name under dir, trimmed.
func fileText(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}
