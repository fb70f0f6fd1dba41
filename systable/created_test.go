package systable

import "testing"

func TestCreatedPathArg(t *testing.T) {
	tab, err := New("amd64")
	if err != nil {
		t.Fatal(err)
	}
	const oCreat = 0o100
	for _, tc := range []struct {
		name    string
		flags   uint64 // the open flags, where the row has them
		flagArg int
		want    int
	}{
		{"mkdir", 0, -1, 0},
		{"mkdirat", 0, -1, 1},
		{"open", oCreat, 1, 0},
		{"open", 0, 1, -1},
		{"openat", oCreat, 2, 1},
		{"creat", 0, -1, 0},
		{"rename", 0, -1, 1},
		{"renameat2", 0, -1, 3},
		{"link", 0, -1, 1},
		{"linkat", 0, -1, 3},
		{"symlink", 0, -1, 1},
		{"symlinkat", 0, -1, 2},
		{"stat", 0, -1, -1},
		{"unlink", 0, -1, -1},
	} {
		row, ok := tab.ByName(tc.name)
		if !ok {
			t.Fatalf("no row %s", tc.name)
		}
		var args [6]uint64
		if tc.flagArg >= 0 {
			args[tc.flagArg] = tc.flags
		}
		if got := row.CreatedPathArg(args); got != tc.want {
			t.Errorf("%s (flags %#o): created path argument %d, want %d", tc.name, tc.flags, got, tc.want)
		}
	}
}
