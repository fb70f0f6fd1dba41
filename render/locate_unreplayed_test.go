package render

import (
	"strings"
	"testing"
)

// TestLocatedUnreplayed: a culprit named at the fail end for a capability
// no run can give (bisect's identityEnd) is headed by the capability, and
// the report never claims that replaying it made the command pass.
func TestLocatedUnreplayed(t *testing.T) {
	good, here := "000001fffeffffff", "000001fffeffdfff"
	item := StartItem{Kind: "caps", Name: "bounding", Good: &good, Here: &here}
	item.Text = item.Plain()
	r := &LocateReport{Status: Located, RecordedCalls: 178, Runs: 1, Unapplied: []StartItem{item},
		Culprit: &Culprit{Seq: 144, Who: "[1]", Syscall: "socket", Call: "socket(AF_INET, SOCK_RAW, 1) = 3",
			Good: CallResult{Return: "3"}, Here: CallResult{Return: "-1 EPERM (Operation not permitted)", Errno: "EPERM"}, Unreplayed: true},
		Cause: &Cause{Item: item, Seq: 144, Text: "socket = EPERM here: CAP_NET_RAW is in the good run's bounding set, not here"},
	}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"cause     CAP_NET_RAW: in the good run's bounding set, not here\n",
		"No run replayed this call or started the command past it",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "the command passes here") {
		t.Errorf("the report claims a run passed:\n%s", out)
	}
}
