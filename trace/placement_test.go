package trace

import "testing"

func TestPlacementOwnDoing(t *testing.T) {
	pinned := []StartEvent{{Kind: StartCPUs, Name: CPUsPinned, Value: "1"}}
	inherited := []StartEvent{{Kind: StartAffinity, Value: "0-7"}, {Kind: StartCPUs, Name: CPUsInherited, Value: "0-7"}}
	cases := []struct {
		name      string
		start     []StartEvent
		runPinned bool
		own       bool
	}{
		// Unpinned on both sides: a difference is the environment's (8
		// CPUs there, 2 here) and must stay a candidate.
		{"unpinned both", inherited, false, false},
		{"recorded unpinned, run pinned", inherited, true, true},
		{"recorded pinned, run unpinned", pinned, false, true},
		{"pinned both", pinned, true, true},
		{"old trace, run unpinned", nil, false, true},
		{"old trace, run pinned", nil, true, true},
	}
	for _, c := range cases {
		if got := PlacementOf(c.start).OwnDoing(c.runPinned); got != c.own {
			t.Errorf("%s: OwnDoing = %v, want %v", c.name, got, c.own)
		}
	}
	if p := PlacementOf(inherited); !p.Known || p.Pinned || p.CPUs != "0-7" || !p.Unpinned() {
		t.Errorf("PlacementOf(inherited) = %+v", p)
	}
	if p := PlacementOf(pinned); !p.Known || !p.Pinned || p.CPUs != "1" || p.Unpinned() {
		t.Errorf("PlacementOf(pinned) = %+v", p)
	}
	if p := PlacementOf(nil); p.Known || p.Unpinned() {
		t.Errorf("PlacementOf(nil) = %+v", p)
	}
}
