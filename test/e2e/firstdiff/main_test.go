// Package firstdiff_test checks that locate names the first differing
// call of a resource, not the later call at which replay flips the
// verdict (issue 14, deliver 2), with real programs in environments the
// tests build (testutil.InWorkNS): a program that reads its
// configuration and later stats it again (testdata/victims/restat.c),
// and a script whose creation of a file fails here before it removes it
// (dash and rm). The flip is kept in the report as evidence
// (culprit.flip) and the report leads with the resource and how it
// differs.
package firstdiff_test

import (
	"path/filepath"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }

// report is the part of locate's JSON report these tests read.
type report struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Culprit *cause `json:"culprit"`
	Causes  []*cause
	Space   *struct {
		Over string `json:"over"`
	} `json:"space"`
	raw string
}

// cause is a cause of the report.
type cause struct {
	Seq      uint64 `json:"seq"`
	Syscall  string `json:"syscall"`
	Path     string `json:"path"`
	Resource string `json:"resource"`
	Differs  string `json:"differs"`
	// Start is a start item's kind and name (an object search's peer).
	Start *struct {
		Kind string `json:"kind"`
		Name string `json:"name"`
	} `json:"start"`
	Here struct {
		Errno string `json:"errno"`
	} `json:"here"`
	DataDiff *struct {
		Diff []string `json:"diff"`
	} `json:"data_diff"`
	Content *cause `json:"content"`
	Flip    *struct {
		Unit         string `json:"unit"`
		Seq          uint64 `json:"seq"`
		Syscall      string `json:"syscall"`
		Resource     string `json:"resource"`
		FirstDiffers bool   `json:"first_differs"`
	} `json:"flip"`
}

// readReport reads $OUT/report.json.
func readReport(t *testing.T, out string) report {
	t.Helper()
	var r report
	r.raw = testutil.ReadJSONText(t, filepath.Join(out, "report.json"), &r)
	return r
}
