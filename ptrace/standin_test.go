package ptrace

import "testing"

func TestStandInLink(t *testing.T) {
	tests := []struct {
		link, standsFor string
		ok              bool
	}{
		{"/memfd:/w/run.sh (deleted)", "/w/run.sh", true},
		{"/memfd:envbisect-stand-in (deleted)", "", true},
		{"/memfd:pulseaudio (deleted)", "", false}, // the program's own memfd
		{"/w/run.sh", "", false},
		{"socket:[1234]", "", false},
	}
	for _, tt := range tests {
		got, ok := standInLink(tt.link)
		if got != tt.standsFor || ok != tt.ok {
			t.Errorf("standInLink(%q) = %q, %v; want %q, %v", tt.link, got, ok, tt.standsFor, tt.ok)
		}
	}
}
