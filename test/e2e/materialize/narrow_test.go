package materialize

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// narrowed reads the object search's steps from the report in out and
// returns how many runs of the search proper and of the confirmation
// were narrowed (sandbox.Spec.Narrow), and the search's warnings.
func narrowed(t *testing.T, out string) (search, confirm int, warnings []string) {
	t.Helper()
	var r struct {
		Objects struct {
			Steps []struct {
				Role     string `json:"role"`
				Narrowed bool   `json:"narrowed"`
			} `json:"steps"`
			Warnings []string `json:"warnings"`
		} `json:"objects"`
	}
	testutil.ReadJSON(t, filepath.Join(out, "report.json"), &r)
	for _, s := range r.Objects.Steps {
		switch {
		case s.Narrowed && s.Role == "":
			search++
		case s.Narrowed:
			confirm++
		}
	}
	return search, confirm, r.Objects.Warnings
}

// TestMaterializeNarrowedRuns: GNU sort writes its output in a directory
// of its own (out/) and reads its order from sort.conf, which differs
// here. The search's runs are narrowed: writable mounts bound read-only,
// out/ a throwaway overlay, the good sort.conf a file bound over this
// one; the runs that confirm the cause are isolated in full. The cause
// is sort.conf, and what the runs wrote in out/ is not there afterwards.
func TestMaterializeNarrowedRuns(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("sort"), testutil.Binary("cmp"))
	out := testutil.InWorkNS(t, prelude+`
mkdir app/out
printf 'b\na\nc\n' > app/list
printf 'a\nb\nc\n' > app/want
echo 'flags=' > app/sort.conf
check='grep TracerPid /proc/$$/status >&2; sort $(sed -n "s/^flags=//p" sort.conf) -o out/sorted list && cmp -s out/sorted want'
record_good sh -c "$check"
rm app/out/sorted
echo 'flags=-r' > app/sort.conf
locate_bad sh -c "$check"
ls app/out > "$OUT/out-after"
`)
	_, c := located(t, out)
	conf := testutil.ReadText(t, out, "w") + "/app/sort.conf"
	if c.Path != conf {
		t.Errorf("cause %s %s; want %s", c.Kind, c.Path, conf)
	}
	search, confirm, warnings := narrowed(t, out)
	if search == 0 || confirm != 0 || len(warnings) != 0 {
		t.Errorf("%d runs of the search and %d confirming runs narrowed, warnings %q; want the search's narrowed, no confirming run, no warning",
			search, confirm, warnings)
	}
	if got := testutil.ReadText(t, out, "out-after"); got != "" {
		t.Errorf("out/ holds %q after locate; the runs' output must not reach it", got)
	}
}

// TestMaterializeNarrowingFailsOver: a check that reads the stamp file
// of its first run or, when it is missing, notes its first run in a spool
// directory (with touch), and then reads its configuration with grep. In
// the good run the stamp was there, so the recording wrote nothing; here
// both the stamp and the configuration differ. A narrowed run without
// the stamp in place cannot write the spool (EROFS) and fails whatever
// the configuration: the narrowed search ends at both, which the fully
// isolated confirming runs do not bear out (with everything but the
// stamp in place the command passes). The search is made again isolated
// in full and names the configuration alone, saying why; the spool is
// untouched.
func TestMaterializeNarrowingFailsOver(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("grep"), testutil.Binary("touch"))
	out := testutil.InWorkNS(t, prelude+`
mkdir "$W/spool"
echo 1 > app/stamp
echo 'mode=good' > app/app.conf
check='grep TracerPid /proc/$$/status >&2; if test -e stamp; then cat stamp; else touch ../spool/first-run || exit 3; fi; grep -q ^mode=good app.conf'
record_good sh -c "$check"
rm app/stamp
echo 'mode=bad' > app/app.conf
locate_bad sh -c "$check"
ls "$W/spool" > "$OUT/spool-after"
`)
	_, c := located(t, out)
	conf := testutil.ReadText(t, out, "w") + "/app/app.conf"
	if c.Path != conf {
		t.Errorf("cause %s %s; want %s", c.Kind, c.Path, conf)
	}
	search, confirm, warnings := narrowed(t, out)
	if search == 0 || confirm != 0 {
		t.Errorf("%d runs of the search and %d confirming runs narrowed; want the first search's narrowed, no confirming run", search, confirm)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "made again with every writable mount isolated") {
		t.Errorf("warnings %q; want the search made again in full", warnings)
	}
	if got := testutil.ReadText(t, out, "spool-after"); got != "" {
		t.Errorf("the spool holds %q after locate; the runs' writes must not reach it", got)
	}
}
