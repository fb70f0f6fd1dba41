package systable

import (
	"errors"
	"strings"
	"testing"
)

// A trace of an architecture without a table is refused with a clear
// error naming it; the x86-64 table builds on every host.
func TestNewByArch(t *testing.T) {
	tab, err := New("amd64")
	if err != nil || tab.Arch != "amd64" {
		t.Fatalf("New(amd64) = %v, %v", tab, err)
	}
	for _, arch := range []string{"arm64", "riscv64", ""} {
		_, err := New(arch)
		if !errors.Is(err, ErrNoTable) {
			t.Errorf("New(%q) error = %v, want ErrNoTable", arch, err)
			continue
		}
		if arch != "" && !strings.Contains(err.Error(), `"`+arch+`"`) {
			t.Errorf("New(%q) error %q does not name the architecture", arch, err)
		}
	}
}
