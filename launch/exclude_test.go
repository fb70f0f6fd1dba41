package launch

import "testing"

func TestExcluder(t *testing.T) {
	e, err := newExcluder([]string{"/home/*/.ssh/**", "*.pem", "/etc/shadow"})
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{
		"/home/ann/.ssh/id_ed25519": true,
		"/home/ann/.ssh":            true,
		"/home/ann/notes":           false,
		"/etc/shadow":               true,
		"/etc/passwd":               false,
		"/srv/key.pem":              false, // "*" does not cross "/"
		"":                          false,
	} {
		if got := e.match(p); got != want {
			t.Errorf("match(%q) = %v, want %v", p, got, want)
		}
	}
	if _, err := newExcluder([]string{"[unclosed"}); err == nil {
		t.Error("a malformed glob was accepted")
	}
}
