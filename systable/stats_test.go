package systable

import "testing"

// TestStatsPath: the calls that answer with a path's stat, and not those
// that stat an fd or answer otherwise.
func TestStatsPath(t *testing.T) {
	tab, err := New("amd64")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		"stat": true, "lstat": true, "newfstatat": true, "statx": true,
		"fstat": false, "access": false, "statfs": false, "openat": false, "readlink": false,
	} {
		row, ok := tab.ByName(name)
		if !ok {
			t.Fatalf("no row %s", name)
		}
		if got := row.StatsPath(); got != want {
			t.Errorf("%s: StatsPath %v, want %v", name, got, want)
		}
	}
}
