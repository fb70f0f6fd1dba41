package ptrace

import "testing"

func TestRedirectLookup(t *testing.T) {
	rd := redirects{
		to:  map[string]string{"/w/ro/out": "/tmp/envbisect-scratch-7/1-out", "/etc/app.d/x.conf": "/tmp/envbisect-scratch-7/2-x.conf"},
		dir: "/tmp/envbisect-scratch-7",
	}
	for _, tc := range []struct {
		path, want string
		ok         bool
	}{
		{"/w/ro/out", "/tmp/envbisect-scratch-7/1-out", true},
		{"/w/ro/out/bin/tool", "/tmp/envbisect-scratch-7/1-out/bin/tool", true},
		{"/etc/app.d/x.conf", "/tmp/envbisect-scratch-7/2-x.conf", true},
		{"/w/ro/outer", "", false}, // a sibling with the same prefix
		{"/w/ro", "", false},
		{"/", "", false},
		{"out/bin", "", false}, // relative: never looked up
	} {
		got, ok := rd.lookup(tc.path)
		if got != tc.want || ok != tc.ok {
			t.Errorf("lookup(%q) = %q, %v; want %q, %v", tc.path, got, ok, tc.want, tc.ok)
		}
	}
	for live, want := range map[string]string{
		"/tmp/envbisect-scratch-7/1-out/bin/tool": "/w/ro/out/bin/tool",
		"/tmp/envbisect-scratch-7/1-out":          "/w/ro/out",
		"/tmp/envbisect-scratch-7/1-outer":        "/tmp/envbisect-scratch-7/1-outer",
		"/etc/hosts":                              "/etc/hosts",
	} {
		if got := rd.programPath(live); got != want {
			t.Errorf("programPath(%q) = %q, want %q", live, got, want)
		}
	}
	var none redirects
	if _, ok := none.lookup("/w/ro/out"); ok {
		t.Error("an empty table redirected a path")
	}
	if got := none.programPath("/tmp/x"); got != "/tmp/x" {
		t.Errorf("an empty table changed %q to %q", "/tmp/x", got)
	}
}

func TestCannotCreateHere(t *testing.T) {
	for errno, want := range map[int64]bool{30: true /* EROFS */, 13: true /* EACCES */, 2: true /* ENOENT */, 18: true /* EXDEV */, 17: false /* EEXIST */, 9: false /* EBADF */} {
		if got := cannotCreateHere(errno); got != want {
			t.Errorf("cannotCreateHere(%d) = %v, want %v", errno, got, want)
		}
	}
}
