package systable

import "testing"

// TestPlacementRows: sched_getaffinity answers with the CPUs the process
// may run on, which envbisect's pinning decides; sched_setaffinity and
// getcpu do not answer that (getcpu's answer is volatile: where the
// thread happens to run).
func TestPlacementRows(t *testing.T) {
	tab, err := New("amd64")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"sched_getaffinity": true, "sched_setaffinity": false, "getcpu": false, "openat": false}
	for name, p := range want {
		row, ok := tab.ByName(name)
		if !ok {
			t.Fatalf("no row %s", name)
		}
		if row.Placement != p {
			t.Errorf("%s: Placement %v, want %v", name, row.Placement, p)
		}
	}
	for _, r := range tab.All() {
		if r.Placement && len(r.Args) < 3 {
			t.Errorf("%s: Placement on a call without an out-buffer of CPUs", r.Name)
		}
	}
}
