package systable

import "testing"

// Every x86-64 row carries the number <asm/unistd_64.h> gives its name
// (through xlat/syscalls.in), and every call listed there has a row.
func TestRowNumbersMatchHeaders(t *testing.T) {
	nums := x86_64SyscallNumbers()
	tab := amd64Table(t)
	for _, r := range tab.All() {
		nr, ok := nums[r.Name]
		if !ok {
			t.Errorf("row %s (%d) is not in xlat/syscalls.in", r.Name, r.Nr)
			continue
		}
		if nr != r.Nr {
			t.Errorf("row %s has number %d, the headers say %d", r.Name, r.Nr, nr)
		}
	}
	for name, nr := range nums {
		if _, ok := tab.ByName(name); !ok {
			t.Errorf("%s (%d) has no row", name, nr)
		}
	}
}
