package replay

import (
	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/tracefile"
)

// prepare builds tr's dependency graph, as the CLI does, and prepares tr
// with it.
func prepare(tr *tracefile.Trace) (*Recording, error) {
	if err := CheckArch(&tr.Header); err != nil {
		return nil, err
	}
	tab, err := systable.New(tr.Header.Arch)
	if err != nil {
		return nil, err
	}
	g, err := depgraph.Build(tab, &tr.Header, tr.Events)
	if err != nil {
		return nil, err
	}
	return Prepare(tr, g)
}
