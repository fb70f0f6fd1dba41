package launch

import "testing"

func TestResolvePath(t *testing.T) {
	for _, tc := range []struct{ base, p, want string }{
		{"/srv", "a/../b.txt", "/srv/b.txt"},
		{"/srv", "/etc//hosts", "/etc/hosts"},
		{"/srv", "", "/srv"},
		{"", "rel", "rel"},
	} {
		if got := ResolvePath(tc.base, tc.p); got != tc.want {
			t.Errorf("ResolvePath(%q, %q) = %q, want %q", tc.base, tc.p, got, tc.want)
		}
	}
}
