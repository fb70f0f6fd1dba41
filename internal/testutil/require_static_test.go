package testutil

import "testing"

// TestStaticFile: a static busybox meets the need; a dynamically linked
// program (Debian's /bin/sh, dash) does not, nor a missing file.
func TestStaticFile(t *testing.T) {
	Require(t, StaticFile("/bin/busybox", "busybox-static"))
	if StaticFile("/nonexistent/busybox", "x").check() {
		t.Error("a missing file counts as static")
	}
	if StaticFile("/bin/sh", "x").check() {
		t.Error("/bin/sh (dash, dynamically linked) counts as static")
	}
}
