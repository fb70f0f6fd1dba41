package render

import (
	"strings"
	"testing"
)

// TestCwdItemSaysItself: the working directory says itself plainly, as a
// culprit and as an unapplied item with why and the remedy.
func TestCwdItemSaysItself(t *testing.T) {
	good, here := "/src/build-a", "/tmp/w/bad"
	it := StartItem{Kind: "cwd", Good: &good, Here: &here}
	want := "the working directory differs: good /src/build-a, here /tmp/w/bad"
	if got := it.Plain(); got != want {
		t.Errorf("Plain() = %q, want %q", got, want)
	}
	if got := (StartItem{Kind: "env", Name: "LANG", Good: &good}).Plain(); got != "" {
		t.Errorf("an env item's Plain() = %q, want none", got)
	}
	it.Text, it.Why, it.Remedy = it.Plain(), "no sandbox", "drop --sandbox=off"
	lines := UnappliedLines([]StartItem{it})
	if len(lines) != 1 || lines[0] != want+": not applied: no sandbox; drop --sandbox=off" {
		t.Errorf("unapplied lines %q", lines)
	}
	var b strings.Builder
	r := &LocateReport{Status: Located, Runs: 3, Culprit: &Culprit{Start: &it}}
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(got, "The working directory differs: good /src/build-a, here /tmp/w/bad.") {
		t.Errorf("the text report does not say the difference plainly:\n%s", b.String())
	}
}
