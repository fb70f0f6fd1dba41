package render

import (
	"bytes"
	"strings"
	"testing"
)

// TestSpaceText: the text report says what the search ran over.
func TestSpaceText(t *testing.T) {
	for _, tt := range []struct {
		name string
		r    LocateReport
		want string
	}{
		{"differing", LocateReport{Status: Located, StartItems: 1, Space: &SearchSpace{Over: SpaceDiffering, Candidates: 3,
			Resources: []SpaceResource{{Title: "file /etc/a"}, {Title: "directory /src"}}}},
			"Searched over what differs here: 1 start item and 2 resources (file /etc/a,\ndirectory /src), each replayed whole in a run."},
		{"named start items", LocateReport{Status: Located, StartItems: 2, Space: &SearchSpace{Over: SpaceDiffering, Candidates: 3,
			StartItems: []string{"env PATH", "umask"}, Resources: []SpaceResource{{Title: "file /run/mpd/pid"}}}},
			"Searched over what differs here: 2 start items (env PATH, umask) and 1\nresource (file /run/mpd/pid), each replayed whole in a run."},
		{"many resources", LocateReport{Status: Located, Space: &SearchSpace{Over: SpaceDiffering, Candidates: 7,
			Resources: []SpaceResource{{Title: "a"}, {Title: "b"}, {Title: "c"}, {Title: "d"}, {Title: "e"}, {Title: "f"}, {Title: "g"}}}},
			"Searched over what differs here: 7 resources (a, b, c, d, e, 2 more), each\nreplayed whole in a run."},
		{"fallback", LocateReport{Status: ReplayStillFails, ReplayableCalls: 324, Space: &SearchSpace{Over: SpaceAll, Candidates: 324,
			Fallback:  "replaying the resource that differs here does not make the command pass",
			Resources: []SpaceResource{{Title: "file /etc/a"}}}},
			"Searched over every replayable call (324), by prefix: replaying the resource\nthat differs here does not make the command pass (differing: file /etc/a)."},
	} {
		var b bytes.Buffer
		if err := tt.r.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tt.want) {
			t.Errorf("%s: text lacks %q:\n%s", tt.name, tt.want, b.String())
		}
	}
}
