package launch

import (
	"strings"
	"testing"
)

func TestExcluder(t *testing.T) {
	e, err := newExcluder([]string{"/home/*/.ssh/**", "**/*.pem", "/etc/shadow", "/var/tmp/**/key.der", "/srv/secret/**"})
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{
		"/home/ann/.ssh/id_ed25519": true,
		"/home/ann/.ssh":            true,
		"/home/ann/notes":           false,
		"/etc/shadow":               true,
		"/etc/passwd":               false,
		"/srv/key.pem":              true, // "**/" crosses "/", and matches the root's files too
		"/key.pem":                  true,
		"/a/b/c/key.pem":            true,
		"/a/b/c/key.pem.txt":        false,
		"/var/tmp/key.der":          true, // "/**/" matches no component as well
		"/var/tmp/x/y/key.der":      true,
		"/var/key.der":              false,
		"/srv/secret/a/b":           true,
		"/srv/secrets":              false,
		"":                          false,
		"pipe:[123]":                false,
	} {
		if got := e.match(p); got != want {
			t.Errorf("match(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestExcluderRefusesPatternsThatCannotMatch(t *testing.T) {
	for pat, says := range map[string]string{
		"*.pem":     "'**/*.pem'",
		"secret/**": "'/secret/**'",
		"[unclosed": "not a valid glob",
		"/a/{b":     "not a valid glob",
	} {
		_, err := newExcluder([]string{pat})
		if err == nil {
			t.Errorf("%q was accepted", pat)
			continue
		}
		if !strings.Contains(err.Error(), says) {
			t.Errorf("%q: error %q does not say %s", pat, err, says)
		}
	}
}
