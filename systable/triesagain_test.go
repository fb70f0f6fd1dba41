package systable

import "testing"

// TestTriesAgainRows: the calls that wait for data or a connection on a
// non-blocking fd try again; a call that makes a process (its EAGAIN is
// a limit, not timing) and a metadata call do not.
func TestTriesAgainRows(t *testing.T) {
	tab, err := New("amd64")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"read": true, "readv": true, "recvfrom": true, "recvmsg": true, "recvmmsg": true,
		"accept": true, "accept4": true, "clone": false, "fork": false, "newfstatat": false, "openat": false}
	for name, w := range want {
		row, ok := tab.ByName(name)
		if !ok {
			t.Fatalf("no row %s", name)
		}
		if row.TriesAgain != w {
			t.Errorf("%s: TriesAgain %v, want %v", name, row.TriesAgain, w)
		}
	}
}
