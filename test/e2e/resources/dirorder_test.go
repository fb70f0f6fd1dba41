package resources_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestDirectoryOrder: find | cpio archives a directory in the order its
// listing comes back; tmpfs lists entries in reverse creation order, so
// the same files created in another order (same contents, modes and
// mtimes; --reproducible leaves inode and device numbers out) give
// another archive. The culprit is a getdents64 of that directory.
func TestDirectoryOrder(t *testing.T) {
	testutil.Require(t, testutil.Binary("cpio"), testutil.Binary("find"), testutil.Binary("touch"))
	out := testutil.InWorkNS(t, buildPrelude+`
# make_src NAME...: $W/src with one file per NAME, created in that order
make_src() {
	rm -rf "$W/src"; mkdir "$W/src"
	for f in "$@"; do echo "file $f" > "$W/src/$f"; done
	touch -d '2020-01-02 03:04:05 UTC' "$W/src"/* "$W/src"
}
build='find . | cpio -o -H newc --reproducible --quiet > "$W/out/src.cpio"'
make_src alpha beta gamma delta epsilon
cd "$W/src"
record_good src.cpio sh -c "$build"
make_src epsilon delta gamma beta alpha
cd "$W/src"
run_bad src.cpio sh -c "$build"
locate_bad src.cpio sh -c "$build"
`)
	differs(t, out, "the same files created in another order")
	r := readReport(t, out, "report.json")
	dir := testutil.ReadText(t, out, "w") + "/src"
	if c := r.Culprit; c == nil || c.Start != nil || c.Syscall != "getdents64" || c.Path != dir {
		t.Errorf("culprit %s, want a getdents64 of %s", show(c), dir)
	}
	assertSearched(t, r)
	if code := testutil.ReadText(t, out, "code"); code != "0" {
		t.Errorf("locate exited %s, want 0 (located)", code)
	}
}
