// Package explain_test checks the explanation locate gives of its culprit
// (issue 14, deliver 5) with real programs in environments the tests
// build (testutil.InWorkNS): which component of a path is missing here,
// the mode of a directory that denies a creation here, and the value of
// a start item the command itself had here (the open-files limit, which
// envbisect's own Go runtime raises for itself).
package explain_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }

// report is the part of locate's JSON report these tests read.
type report struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Culprit *struct {
		Syscall     string `json:"syscall"`
		Path        string `json:"path"`
		Explanation string `json:"explanation"`
		Here        struct {
			Errno string `json:"errno"`
		} `json:"here"`
		Start *struct {
			Kind string  `json:"kind"`
			Name string  `json:"name"`
			Good *string `json:"good"`
			Here *string `json:"here"`
		} `json:"start"`
		Facts *struct {
			Missing *struct {
				Path          string `json:"path"`
				Known         bool   `json:"known"`
				ExistedInGood bool   `json:"existed_in_good"`
			} `json:"missing"`
			Paths []struct {
				Path string `json:"path"`
				Good *struct {
					Mode uint32 `json:"mode"`
				} `json:"good"`
				Here *struct {
					Mode uint32 `json:"mode"`
				} `json:"here"`
			} `json:"paths"`
			RanAs *struct {
				Changed []string `json:"changed"`
			} `json:"ran_as"`
		} `json:"facts"`
	} `json:"culprit"`
}

func readReport(t *testing.T, out string) report {
	t.Helper()
	var r report
	testutil.ReadJSON(t, out+"/report.json", &r)
	if r.Status != "located" || r.Culprit == nil {
		t.Fatalf("status %q (%s), culprit %v; want located", r.Status, r.Message, r.Culprit)
	}
	return r
}
