// Package explain_test checks the explanation locate gives of its culprit
// (issue 14, deliver 5) with real programs in environments the tests
// build (testutil.InWorkNS): which component of a path is missing here,
// the mode of a directory that denies a creation here (stat'ed by the
// program, or only by the recorder), the value of a start item the
// command itself had here (the open-files limit, which envbisect's own
// Go runtime raises for itself), a hard limit no run can raise here
// (listed as not applied, named as the cause of EMFILE), the member of a
// stat that differs (make's mtime), the package and version that own a
// library on each side, and the process that holds an address here.
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
				AfterRuns     bool   `json:"after_runs"`
				ExistedInGood bool   `json:"existed_in_good"`
			} `json:"missing"`
			Paths []struct {
				Path string `json:"path"`
				Good *struct {
					Mode uint32 `json:"mode"`
					From string `json:"from"`
				} `json:"good"`
				Here *struct {
					Mode uint32 `json:"mode"`
					From string `json:"from"`
				} `json:"here"`
			} `json:"paths"`
			RanAs *struct {
				Changed []string `json:"changed"`
			} `json:"ran_as"`
			Package *struct {
				Path string   `json:"path"`
				Good *pkgJSON `json:"good"`
				Here *pkgJSON `json:"here"`
			} `json:"package"`
			Holder *struct {
				Address string `json:"address"`
				PID     int    `json:"pid"`
				Exe     string `json:"exe"`
			} `json:"holder"`
		} `json:"facts"`
	} `json:"culprit"`
}

// pkgJSON is a package owner as the report gives it.
type pkgJSON struct {
	Manager string `json:"manager"`
	Name    string `json:"name"`
	Version string `json:"version"`
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
