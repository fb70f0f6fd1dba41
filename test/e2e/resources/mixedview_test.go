package resources_test

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestMixedViewGuard: a program stats a file, reads it and stats it
// again, and writes what it saw (both sizes and mtimes, the content's
// hash); here the file has other content (and so another size). A run
// that gave the program the good run's answer to one stat and this
// environment's to the other would fail for the mix, so a prefix search
// would name the second stat: the culprit must be the file's open (with
// the read as content evidence) or its read, never a stat.
func TestMixedViewGuard(t *testing.T) {
	testutil.Require(t, testutil.File("/usr/bin/python3"), testutil.Binary("touch"))
	out := testutil.InWorkNS(t, buildPrelude+`
mkdir build build/data
cat > build/look.py <<'P'
import hashlib, os, sys
before = os.stat("data/conf")
with open("data/conf", "rb") as f:
    data = f.read()
after = os.stat("data/conf")
with open(sys.argv[1], "w") as out:
    out.write("%d %d %s %d %d\n" % (before.st_size, before.st_mtime, hashlib.sha256(data).hexdigest(), after.st_size, after.st_mtime))
P
cd build
printf 'mode=good\nlevel=3\n' > data/conf
touch -d '2020-01-02 03:04:05 UTC' data/conf
record_good said /usr/bin/python3 look.py "$W/out/said"
printf 'mode=broken-here\nlevel=3\n' > data/conf
touch -d '2020-01-02 03:04:05 UTC' data/conf
run_bad said /usr/bin/python3 look.py "$W/out/said"
locate_bad said /usr/bin/python3 look.py "$W/out/said"
`)
	differs(t, out, "the file with other content")
	r := readReport(t, out, "report.json")
	conf := testutil.ReadText(t, out, "w") + "/build/data/conf"
	c := r.Culprit
	switch {
	case c == nil || c.Start != nil:
		t.Errorf("culprit %s, want the openat or the read of %s", show(c), conf)
	case strings.Contains(c.Syscall, "stat"):
		t.Errorf("culprit %s: a stat of the file, want its openat or read (a run mixed the good run's stat with this one's)", show(c))
	case c.Syscall != "openat" && c.Syscall != "read" || c.Path != conf:
		t.Errorf("culprit %s, want the openat or the read of %s", show(c), conf)
	case c.Syscall == "openat" && (c.Content == nil || c.Content.Syscall != "read" || c.Content.Path != conf):
		t.Errorf("culprit %s: the openat of %s without its read as content evidence", show(c), conf)
	}
	assertSearched(t, r)
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0 (located)", code)
	}
}
