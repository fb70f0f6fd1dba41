package explain_test

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// mtimeReport is the part of locate's JSON report TestExplainMtime reads.
type mtimeReport struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Culprit *struct {
		Syscall     string `json:"syscall"`
		Path        string `json:"path"`
		Explanation string `json:"explanation"`
		DataDiff    *struct {
			Struct string `json:"struct"`
			Fields []struct {
				Field string `json:"field"`
				Good  string `json:"good"`
				Here  string `json:"here"`
			} `json:"fields"`
		} `json:"data_diff"`
	} `json:"culprit"`
}

// TestExplainMtime: `make -q` says whether out.txt is up to date with
// in.txt; in good out.txt is newer, in bad the mtimes are swapped, and
// the files' contents are the same. The culprit is make's stat of
// out.txt, and the explanation names the member that differs, st_mtime,
// with both dates: never "the content differs" with the struct's raw
// bytes (the first of which, st_dev, differs between any two runs).
func TestExplainMtime(t *testing.T) {
	testutil.Require(t, testutil.Binary("make"), testutil.Binary("touch"))
	out := testutil.InWorkNS(t, testutil.AppPrelude+`
for d in good bad; do
	printf 'out.txt: in.txt\n\tcp in.txt out.txt\n' > $d/Makefile
	echo hello > $d/in.txt; echo hello > $d/out.txt
done
TZ=UTC touch -d '2026-11-25 10:00:00' good/in.txt bad/out.txt
TZ=UTC touch -d '2026-11-25 10:05:00' good/out.txt bad/in.txt
mount --bind good app
(cd app && "$EB" record -q -o ../t.envb -- make -q)
umount app; mount --bind bad app
locate_bad make -q
`)
	var r mtimeReport
	testutil.ReadJSON(t, out+"/report.json", &r)
	c := r.Culprit
	if r.Status != "located" || c == nil {
		t.Fatalf("status %s (%s); want located", r.Status, r.Message)
	}
	t.Logf("explanation: %s", c.Explanation)
	w := testutil.ReadText(t, out, "w")
	if c.Path != w+"/app/out.txt" || !strings.Contains(c.Syscall, "stat") {
		t.Errorf("culprit %s %s; want a stat of %s/app/out.txt", c.Syscall, c.Path, w)
	}
	const good, here = "2026-11-25 10:05:00 UTC", "2026-11-25 10:00:00 UTC"
	if d := c.DataDiff; d == nil || d.Struct == "" || len(d.Fields) != 1 || !strings.HasPrefix(d.Fields[0].Field, "st") ||
		!strings.HasSuffix(d.Fields[0].Field, "mtime") || d.Fields[0].Good != good || d.Fields[0].Here != here {
		t.Errorf("data diff %+v; want one member, the mtime, good %s, here %s", d, good, here)
	}
	for _, want := range []string{"mtime differs here", "here " + here, "good " + good} {
		if !strings.Contains(c.Explanation, want) {
			t.Errorf("explanation %q lacks %q", c.Explanation, want)
		}
	}
	if strings.Contains(c.Explanation, "content") {
		t.Errorf("explanation %q speaks of content for a stat", c.Explanation)
	}
	txt := testutil.ReadText(t, out, "report.txt")
	if strings.Contains(txt, "first difference at offset") || !strings.Contains(txt, "good "+good) {
		t.Errorf("the text report shows bytes, or not the mtime:\n%s", txt)
	}
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0", code)
	}
}
