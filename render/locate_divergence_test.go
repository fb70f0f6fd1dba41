package render

import (
	"slices"
	"testing"
)

// TestDivergenceTexts: the same line in a row is said once with how
// often, and the list is cut after the limit with how many more.
func TestDivergenceTexts(t *testing.T) {
	d := func(s string) Divergence { return Divergence{Text: s} }
	ds := []Divergence{d("[1] extra poll"), d("[1] extra poll"), d("[1] extra poll"), d("[1] extra recvfrom"), d("[2] diverged"), d("[3] x")}
	if got, want := divergenceTexts(ds, 0), []string{"[1] extra poll (3 times)", "[1] extra recvfrom", "[2] diverged", "[3] x"}; !slices.Equal(got, want) {
		t.Errorf("no limit: %q, want %q", got, want)
	}
	if got, want := divergenceTexts(ds, 2), []string{"[1] extra poll (3 times)", "[1] extra recvfrom", "... 2 more divergences"}; !slices.Equal(got, want) {
		t.Errorf("limit 2: %q, want %q", got, want)
	}
}
