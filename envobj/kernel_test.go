package envobj

import (
	"strings"
	"testing"
)

func TestUname26Release(t *testing.T) {
	for here, want := range map[string]string{
		"6.1.0-18-amd64":  "2.6.61-18-amd64",
		"6.18.44-fc-v669": "2.6.78-fc-v669",
		"5.10.0":          "2.6.70",
		"4.19.0.1-rt":     "2.6.79.1-rt",
		"2.6.32":          "",
		"weird":           "",
	} {
		got, ok := Uname26Release(here)
		if ok != (want != "") || got != want {
			t.Errorf("Uname26Release(%q) = %q, %v; want %q", here, got, ok, want)
		}
	}
}

// TestKernelWords: a release that is this kernel's under UNAME26 is
// fixed with setarch --uname-2.6; another release or a version, by a
// kernel of that release, both values named.
func TestKernelWords(t *testing.T) {
	here, good := "6.1.0-18-amd64", "2.6.61-18-amd64"
	s := StartValue{Kind: KindKernel, Name: "release", Good: &good, Here: &here}
	if got := s.Says(); !strings.Contains(got, `kernel release (uname -r) is "6.1.0-18-amd64" here, "2.6.61-18-amd64" in the good run`) ||
		!strings.Contains(got, "UNAME26") {
		t.Errorf("Says() = %q", got)
	}
	fix := s.Fix()
	if len(fix) != 1 || !strings.Contains(fix[0].Text, `setarch "$(uname -m)" --uname-2.6 COMMAND`) {
		t.Errorf("Fix() = %+v", fix)
	}
	other := "5.10.0-28-amd64"
	s.Good = &other
	if got := s.Says(); strings.Contains(got, "UNAME26") {
		t.Errorf("Says() of another kernel = %q", got)
	}
	if fix := s.Fix(); len(fix) != 1 || fix[0].Command != "" || !strings.Contains(fix[0].Text, `"5.10.0-28-amd64"`) {
		t.Errorf("Fix() of another kernel = %+v", fix)
	}
}
