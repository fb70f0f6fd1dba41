package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// inWorkNS runs script in a work namespace of its own
// (testutil.InWorkNS) and returns $OUT.
func inWorkNS(t *testing.T, script string) string {
	t.Helper()
	return testutil.InWorkNS(t, script)
}

// report is the part of locate's JSON report the tests look at.
type report struct {
	Status     string `json:"status"`
	Message    string `json:"message"`
	Runs       int    `json:"runs"`
	RepeatRuns int    `json:"repeat_runs"`
	// ConfirmRuns, CauseRuns: the runs that confirmed the culprit and
	// searched for further causes, counted apart from Runs.
	ConfirmRuns int    `json:"confirm_runs"`
	CauseRuns   int    `json:"cause_runs"`
	Isolation   string `json:"isolation"`
	Steps       []struct {
		Round int `json:"round"`
	} `json:"steps"`
	// Objects.Steps are the object search's runs when locate fell back
	// from it to the call-level search (Steps are then the latter's).
	Mechanism string `json:"mechanism"`
	Objects   *struct {
		Steps []struct{} `json:"steps"`
	} `json:"objects"`
	Culprit *struct {
		Syscall string `json:"syscall"`
		Path    string `json:"path"`
		Here    struct {
			Errno string `json:"errno"`
		} `json:"here"`
	} `json:"culprit"`
}

// Rounds is the last round of the runs (0: a sequential search).
func (r report) Rounds() int {
	n := 0
	for _, s := range r.Steps {
		n = max(n, s.Round)
	}
	return n
}

// allRuns is how many runs locate made: its steps, and the object
// search's before a fallback to the call-level search.
func (r report) allRuns() int {
	n := len(r.Steps)
	if r.Mechanism == "call-level" && r.Objects != nil {
		n += len(r.Objects.Steps)
	}
	return n
}

func readReport(t *testing.T, path string) report {
	t.Helper()
	var r report
	testutil.ReadJSON(t, path, &r)
	return r
}

// same fails the test unless files a and b under dir have equal contents.
func same(t *testing.T, dir, a, b, what string) {
	t.Helper()
	x, err1 := os.ReadFile(filepath.Join(dir, a))
	y, err2 := os.ReadFile(filepath.Join(dir, b))
	if err1 != nil || err2 != nil {
		t.Fatalf("%s: %v %v", what, err1, err2)
	}
	if strings.TrimSpace(string(x)) != strings.TrimSpace(string(y)) {
		t.Errorf("%s differ: only before: %q; only after: %q", what, onlyIn(x, y), onlyIn(y, x))
	}
}

// onlyIn returns the lines of a that b does not have.
func onlyIn(a, b []byte) []string {
	have := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		have[l] = true
	}
	var out []string
	for _, l := range strings.Split(string(a), "\n") {
		if !have[l] {
			out = append(out, l)
		}
	}
	return out
}

// noMountLeft fails when the mount table read after (file b in dir) has a
// mount the one read before (a) had not: a mount left behind. The test's
// namespace is private, but the host's mounts reach it as they were when
// it was made, and other tests' containers may go away meanwhile (their
// overlays then leave the table): a mount only before is logged, not a
// failure.
func noMountLeft(t *testing.T, dir, a, b string) {
	t.Helper()
	x, err1 := os.ReadFile(filepath.Join(dir, a))
	y, err2 := os.ReadFile(filepath.Join(dir, b))
	if err1 != nil || err2 != nil {
		t.Fatalf("mounts: %v %v", err1, err2)
	}
	if gone := onlyIn(x, y); len(gone) > 0 {
		t.Logf("mounts gone meanwhile (not envbisect's): %q", gone)
	}
	if left := onlyIn(y, x); len(left) > 0 {
		t.Errorf("mounts left behind: %q", left)
	}
}
