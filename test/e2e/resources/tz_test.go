package resources_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestTZ: a manifest of the files' local modification times (ls -l
// --time-style=long-iso) of files with fixed mtimes differs when TZ does:
// UTC in the good run, Asia/Tokyo here. The culprit is the start item env
// TZ.
func TestTZ(t *testing.T) {
	testutil.Require(t, testutil.Binary("ls"), testutil.Binary("touch"),
		testutil.File("/usr/share/zoneinfo/UTC"), testutil.File("/usr/share/zoneinfo/Asia/Tokyo"))
	out := testutil.InWorkNS(t, buildPrelude+`
mkdir build build/data
for f in a b c; do echo "file $f" > build/data/$f; done
touch -d '2020-01-02 03:04:05 UTC' build/data/a
touch -d '2021-06-07 23:30:00 UTC' build/data/b
touch -d '2022-12-31 18:00:00 UTC' build/data/c
build='ls -l --time-style=long-iso data > "$W/out/manifest"'
cd build
(export TZ=UTC; record_good manifest sh -c "$build")
export TZ=Asia/Tokyo
run_bad manifest sh -c "$build"
locate_bad manifest sh -c "$build"
`)
	differs(t, out, "the manifest under TZ=Asia/Tokyo")
	r := readReport(t, out, "report.json")
	assertStartCulprit(t, r, "env", "TZ", "UTC", "Asia/Tokyo")
	assertSearched(t, r)
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0 (located)", code)
	}
}
