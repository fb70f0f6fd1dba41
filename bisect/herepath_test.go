package bisect

import "testing"

// herePathOf maps a path under the recorded cwd to the one here, and
// nothing when the cwds are the same, nested, or the path is elsewhere.
func TestHerePathOf(t *testing.T) {
	s := func(v string) *string { return &v }
	cwd := func(good, here string) []StartItem {
		return []StartItem{{Kind: "env", Name: "HOME", Good: s("/a"), Here: s("/b")}, {Kind: "cwd", Good: s(good), Here: s(here)}}
	}
	for _, c := range []struct {
		p, good, here, want string
	}{
		{"/src/a/conf/app.conf", "/src/a", "/src/b", "/src/b/conf/app.conf"},
		{"/src/a", "/src/a", "/src/b", ""},             // the directory itself: the cwd item says it
		{"/src/ab/x", "/src/a", "/src/b", ""},          // not under it
		{"/etc/app.conf", "/src/a", "/src/b", ""},      // elsewhere
		{"/tmp/m2/x", "/tmp", "/tmp/m2", ""},           // nested: the same names (f1b8216)
		{"/tmp/m2/x", "/tmp/m2", "/tmp", ""},           // nested the other way
		{"/src/a/x", "/src/a", "/src/a", ""},           // the same
		{"/src/a/x", "/src/a/", "/src/b/", "/src/b/x"}, // trailing slashes
	} {
		if got := herePathOf(c.p, cwd(c.good, c.here)); got != c.want {
			t.Errorf("herePathOf(%q) recorded in %s, here %s = %q, want %q", c.p, c.good, c.here, got, c.want)
		}
	}
	if got := herePathOf("/src/a/x", nil); got != "" {
		t.Errorf("no cwd item: %q", got)
	}
}
