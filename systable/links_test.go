package systable

import "testing"

// TestOnLinkColumn: the calls that act on a symbolic link itself.
func TestOnLinkColumn(t *testing.T) {
	want := map[string]bool{}
	for _, n := range []string{"lstat", "readlink", "readlinkat", "lchown", "lsetxattr", "lgetxattr", "llistxattr",
		"lremovexattr", "unlink", "unlinkat", "rmdir", "rename", "renameat", "renameat2"} {
		want[n] = true
	}
	for _, row := range amd64Table(t).All() {
		if row.OnLink != want[row.Name] {
			t.Errorf("%s: OnLink %v, want %v", row.Name, row.OnLink, want[row.Name])
		}
		if row.OnLink && !row.HasPath() {
			t.Errorf("%s acts on a link but names no path", row.Name)
		}
	}
}

func TestFollowsLink(t *testing.T) {
	tab := amd64Table(t)
	const nofollow, emptyPath = 0x100, 0x1000
	for _, c := range []struct {
		name string
		args [6]uint64
		want bool
	}{
		{"stat", [6]uint64{}, true},
		{"lstat", [6]uint64{}, false},
		{"readlink", [6]uint64{}, false},
		{"newfstatat", [6]uint64{0, 0, 0, 0}, true},
		{"newfstatat", [6]uint64{0, 0, 0, nofollow}, false},
		{"newfstatat", [6]uint64{0, 0, 0, emptyPath}, true},
		{"statx", [6]uint64{0, 0, nofollow, 0x7ff}, false},
		{"statx", [6]uint64{0, 0, 0x2000, 0x7ff}, true},
		{"faccessat2", [6]uint64{0, 0, 4, nofollow}, false},
		{"openat", [6]uint64{0, 0, nofollow, 0}, true}, // 0x100 is O_NOCTTY, not a lookup flag
	} {
		row, ok := tab.ByName(c.name)
		if !ok {
			t.Fatalf("no %s", c.name)
		}
		if got := row.FollowsLink(c.args); got != c.want {
			t.Errorf("%s %x: FollowsLink %v, want %v", c.name, c.args, got, c.want)
		}
	}
}
