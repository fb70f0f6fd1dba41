package systable

import "testing"

// Every x86-64 number x/sys knows has a row with the kernel's name, and
// the table has no row x/sys does not know.
func TestNamesMatchUnix(t *testing.T) {
	tab := amd64Table(t)
	for name, nr := range amd64SysNames {
		r, ok := tab.ByName(name)
		if !ok {
			t.Errorf("no row for %s (%d)", name, nr)
			continue
		}
		if r.Nr != nr {
			t.Errorf("%s: row number %d, unix.SYS_ number %d", name, r.Nr, nr)
		}
		if got := tab.ByNr(nr); got.Name != name {
			t.Errorf("ByNr(%d) = %s, want %s", nr, got.Name, name)
		}
	}
	for _, r := range tab.All() {
		if nr, ok := amd64SysNames[r.Name]; !ok || nr != r.Nr {
			t.Errorf("row %s (%d) is not unix.SYS_%s", r.Name, r.Nr, r.Name)
		}
	}
}
