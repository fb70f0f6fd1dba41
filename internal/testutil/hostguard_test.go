package testutil

import (
	"strings"
	"testing"
)

// TestHostChanges: a change of /dev/null's mode between two states is
// named with both states; equal states name nothing.
func TestHostChanges(t *testing.T) {
	before := hostState()
	if got := hostChanges(before, hostState()); len(got) != 0 {
		t.Fatalf("two states of an unchanged host differ: %q", got)
	}
	if !strings.HasPrefix(before["/dev/null"], "mode 20666 ") {
		t.Fatalf("/dev/null: %s, want a character device of mode 666", before["/dev/null"])
	}
	after := hostState()
	after["/dev/null"] = strings.Replace(after["/dev/null"], "mode 20666", "mode 20644", 1)
	got := hostChanges(before, after)
	if len(got) != 1 || !strings.HasPrefix(got[0], "/dev/null: mode 20666") || !strings.Contains(got[0], "now mode 20644") {
		t.Errorf("changes %q, want /dev/null's mode 20666, now 20644", got)
	}
}
