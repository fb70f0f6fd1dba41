package ptrace

import "testing"

func TestStandInLink(t *testing.T) {
	tests := []struct {
		link, believed, standsFor string
		ok                        bool
	}{
		{"/memfd:/w/run.sh (deleted)", "/w/run.sh", "/w/run.sh", true},
		{"/memfd:/w/run.sh (deleted)", "", "/w/run.sh", true},
		{"/memfd:run.sh (deleted)", "/w/good/run.sh", "/w/good/run.sh", true}, // opened by a relative path
		{"/memfd:envbisect-stand-in (deleted)", "/a/long/path", "/a/long/path", true},
		{"/memfd:pulseaudio (deleted)", "/memfd:pulseaudio (deleted)", "", false}, // the program's own memfd
		{"/memfd:run.sh (deleted)", "/w/good/other.sh", "", false},
		{"/w/run.sh", "/w/run.sh", "", false},
		{"socket:[1234]", "", "", false},
	}
	for _, tt := range tests {
		got, ok := standInLink(tt.link, tt.believed)
		if got != tt.standsFor || ok != tt.ok {
			t.Errorf("standInLink(%q, %q) = %q, %v; want %q, %v", tt.link, tt.believed, got, ok, tt.standsFor, tt.ok)
		}
	}
}
