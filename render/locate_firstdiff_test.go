package render

import "testing"

// TestFlipAndCauseTitle: the flip kept as evidence and the line that
// leads a cause, for each kind of flip and of difference.
func TestFlipAndCauseTitle(t *testing.T) {
	conf := "file /etc/app.conf"
	tests := []struct {
		name        string
		c           Culprit
		flip, title string
	}{
		{"call flip, first differing open", Culprit{Seq: 5, Resource: conf, Differs: DiffersErrno,
			Good: CallResult{Errno: ""}, Bad: CallResult{Errno: "EACCES"},
			Flip: &Flip{Unit: FlipCall, Seq: 9, Resource: conf, FirstDiffers: true}},
			"replaying up to #9 flips the verdict; file /etc/app.conf first differs at #5",
			"file /etc/app.conf (EACCES here)"},
		{"call flip, nothing seen to differ", Culprit{Seq: 9, Resource: conf, Differs: DiffersMissing,
			Flip: &Flip{Unit: FlipCall, Seq: 9, Resource: conf}},
			"replaying up to #9 flips the verdict; no call of file /etc/app.conf was seen to answer otherwise here, so #9 itself is named",
			"file /etc/app.conf (not reached here)"},
		{"resource flip, content", Culprit{Seq: 4, Resource: conf, Differs: DiffersContent, Content: &Culprit{Seq: 6},
			Flip: &Flip{Unit: FlipResource, Resource: conf, Calls: 5, FirstDiffers: true}},
			"replaying file /etc/app.conf (5 calls, with the resources before it) flips the verdict; it first differs at #6 (its content, read through #4)",
			"file /etc/app.conf (content differs)"},
		{"errno on the good side", Culprit{Seq: 3, Path: "/srv/x", Differs: DiffersErrno,
			Good: CallResult{Errno: "ENOENT"}, Bad: CallResult{}}, "", "/srv/x (succeeds here, ENOENT in the good run)"},
		{"start item", Culprit{Start: &StartItem{Kind: "env", Name: "LANG", Good: ptr("C")}}, "",
			`start item env LANG (here (not set), good "C")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FlipText(&tt.c); got != tt.flip {
				t.Errorf("FlipText = %q, want %q", got, tt.flip)
			}
			if got := CauseTitle(&tt.c); got != tt.title {
				t.Errorf("CauseTitle = %q, want %q", got, tt.title)
			}
		})
	}
}
