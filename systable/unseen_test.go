package systable

import "testing"

// TestUnseenRows: the io_uring calls and ptrace carry their Unseen
// column, and only a ptrace that returned EPERM counts as refused
// because envbisect traces the program.
func TestUnseenRows(t *testing.T) {
	tab, err := New("amd64")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Unseen{
		"io_uring_setup": UnseenRingIO, "io_uring_enter": UnseenRingIO, "io_uring_register": UnseenRingIO,
		"ptrace": UnseenNestedTrace, "openat": 0, "read": 0,
	}
	for name, u := range want {
		row, ok := tab.ByName(name)
		if !ok {
			t.Fatalf("no row %s", name)
		}
		if row.Unseen != u {
			t.Errorf("%s: Unseen %d, want %d", name, row.Unseen, u)
		}
	}
	pt, _ := tab.ByName("ptrace")
	if !pt.NestedTraceFailed(-1) || pt.NestedTraceFailed(0) || pt.NestedTraceFailed(-3) {
		t.Errorf("ptrace: NestedTraceFailed must hold for -EPERM only")
	}
	if rd, _ := tab.ByName("read"); rd.NestedTraceFailed(-1) {
		t.Errorf("read returning EPERM taken for a nested ptrace")
	}
}
