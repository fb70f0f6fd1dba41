package envobj

import (
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// TestGroupsItem: a groups item names each group that differs by id and
// name (by id alone when it has no name), never the list of numbers,
// and its fix gives the missing group to the user or to one command.
func TestGroupsItem(t *testing.T) {
	s := func(v string) *string { return &v }
	v := StartValue{Kind: string(trace.StartCreds), Name: trace.CredsGroups, Good: s("1000 44 1600"), Here: s("1000 27"),
		GroupNames: map[string]string{"44": "video", "27": "sudo"}}
	if want := "group 44 (video) and group 1600: in the good run's supplementary groups, not here; " +
		"group 27 (sudo): in the supplementary groups here, not in the good run's"; v.Says() != want {
		t.Errorf("says %q; want %q", v.Says(), want)
	}
	var got []string
	for _, st := range v.Fix() {
		got = append(got, st.Command+st.Text)
	}
	want := []string{
		`usermod -aG video "$USER"`,
		"then log in again, or run newgrp video: a session started before the change has its old groups; for one command: sg video -c COMMAND",
		"give the command's user group 1600 (it has no name here: add one with groupadd -g 1600 NAME), then log in again",
		"for one command, as root: setpriv --groups 1000,44,1600 COMMAND (the good run's groups; keep its user with --reuid and --regid)",
	}
	if len(got) != len(want) {
		t.Fatalf("fix %q; want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("fix step %d %q; want %q", i, got[i], want[i])
		}
	}
	if lost, gained, ok := GroupsDiff(s("1 2"), s("x")); ok || lost != nil || gained != nil {
		t.Errorf("an unreadable side: %v %v %v; want not ok", lost, gained, ok)
	}
}
