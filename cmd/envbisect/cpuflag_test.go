package main

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/trace"
)

// TestRunCPUFollowsRecording: --cpu auto in replay and locate places CMD
// as the recording did; an explicit choice that differs is warned
// about, one that agrees (or a recording that does not say) is not.
func TestRunCPUFollowsRecording(t *testing.T) {
	pinned := trace.Placement{Known: true, Pinned: true, CPUs: "1"}
	unpinned := trace.Placement{Known: true, CPUs: "0-1"}
	old := trace.Placement{}
	cases := []struct {
		name, flag string
		p          trace.Placement
		cpu        int
		warns      bool
	}{
		{"auto, recorded unpinned", "auto", unpinned, -1, false},
		{"auto, recorded pinned", "auto", pinned, launch.DefaultCPU(), false},
		{"auto, old trace", "auto", old, launch.DefaultCPU(), false},
		{"any, recorded pinned", "any", pinned, -1, true},
		{"0, recorded unpinned", "0", unpinned, 0, true},
		{"0, recorded pinned", "0", pinned, 0, false},
		{"any, recorded unpinned", "any", unpinned, -1, false},
		{"any, old trace", "any", old, -1, false},
	}
	for _, c := range cases {
		cpu, warning, err := runCPU(c.flag, c.p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if cpu != c.cpu || (warning != "") != c.warns {
			t.Errorf("%s: cpu %d, warning %q; want cpu %d, a warning %v", c.name, cpu, warning, c.cpu, c.warns)
		}
		if c.warns && !strings.Contains(warning, "sees another set of CPUs than in the recording") {
			t.Errorf("%s: warning %q does not say CMD sees another set of CPUs", c.name, warning)
		}
	}
	if _, _, err := runCPU("many", pinned); err == nil {
		t.Errorf("--cpu many accepted")
	}
}
