package causes_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/reportschema"
)

// report is the part of locate's JSON report these tests read.
type report struct {
	Status      string   `json:"status"`
	Message     string   `json:"message"`
	Runs        int      `json:"runs"`
	ConfirmRuns int      `json:"confirm_runs"`
	CauseRuns   int      `json:"cause_runs"`
	Culprit     *cause   `json:"culprit"`
	Causes      []*cause `json:"causes"`
	Suspect     *cause   `json:"suspect"`
	Disagreeing []int    `json:"disagreeing"`
	Space       *struct {
		Over       string `json:"over"`
		Candidates int    `json:"candidates"`
	} `json:"space"`
	Steps []struct {
		Step    int    `json:"step"`
		Role    string `json:"role"`
		Verdict string `json:"verdict"`
	} `json:"steps"`
	Mechanism string `json:"mechanism"`
	Objects   *struct {
		Causes []struct {
			Kind    string `json:"kind"`
			Name    string `json:"name"`
			Says    string `json:"says"`
			Objects []struct {
				Path string `json:"path"`
			} `json:"objects"`
			Fix []struct {
				Command string `json:"command"`
				Text    string `json:"text"`
			} `json:"fix"`
		} `json:"causes"`
		Fix *struct {
			Validated bool `json:"validated"`
		} `json:"fix"`
	} `json:"objects"`
	raw string
}

// cause is a cause of the report (culprit, causes, suspect): a call, or
// a start item.
type cause struct {
	Seq      uint64 `json:"seq"`
	Syscall  string `json:"syscall"`
	Path     string `json:"path"`
	Resource string `json:"resource"`
	// Explanation is the cause in a sentence.
	Explanation string `json:"explanation"`
	Start       *struct {
		Kind string  `json:"kind"`
		Name string  `json:"name"`
		Good *string `json:"good"`
		Here *string `json:"here"`
	} `json:"start"`
}

// names says what c is about: "env MODE", or its path and resource.
func (c *cause) names() string {
	if c == nil {
		return ""
	}
	if c.Start != nil {
		return c.Start.Kind + " " + c.Start.Name
	}
	return c.Path + " " + c.Resource
}

// readReport reads $OUT/report.json.
func readReport(t *testing.T, out string) report {
	t.Helper()
	var r report
	r.raw = reportschema.ReadReport(t, filepath.Join(out, "report.json"), &r)
	return r
}

// assertCauses fails t unless r is located with exactly the causes
// want (each a substring of one cause's names(), in any order), the
// culprit being the first cause, and the confirmation runs at most 2 per
// cause.
func assertCauses(t *testing.T, r report, want ...string) {
	t.Helper()
	var got []string
	for _, c := range r.Causes {
		got = append(got, c.names())
	}
	t.Logf("status %s, causes %q, %d runs + %d confirming + %d for causes", r.Status, got, r.Runs, r.ConfirmRuns, r.CauseRuns)
	if r.Status != "located" || len(r.Causes) != len(want) || r.Culprit == nil || r.Culprit.Seq != r.Causes[0].Seq {
		t.Fatalf("status %s (%s), culprit %q, causes %q; want located with %d causes %q\n%s", r.Status, r.Message,
			r.Culprit.names(), got, len(want), want, r.raw)
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || strings.Contains(g, w)
		}
		if !found {
			t.Errorf("no cause names %q: causes %q", w, got)
		}
	}
	if r.ConfirmRuns > 2*len(want) {
		t.Errorf("%d confirmation runs for %d causes, want at most 2 per cause", r.ConfirmRuns, len(want))
	}
}

// indent re-indents a JSON report for a message.
func indent(raw string) string {
	var v any
	if json.Unmarshal([]byte(raw), &v) != nil {
		return raw
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// startOrNil is c's start item, for a message.
func (c *cause) startOrNil() any {
	if c == nil || c.Start == nil {
		return nil
	}
	return *c.Start
}
