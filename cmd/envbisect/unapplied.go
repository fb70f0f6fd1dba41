package main

import (
	"fmt"

	"github.com/envbisect/envbisect/align"
)

// noteUnapplied tells the user which start items of the process's
// identity differ between the recording and here but cannot be given
// their good value by a run (capability sets, no_new_privs): locate
// never drops them silently.
func noteUnapplied(s streams, items []align.StartDiff) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(s.err, "envbisect: differs here and could not be applied by a run:\n")
	for _, d := range items {
		label := string(d.Kind)
		if d.Name != "" {
			label += " " + d.Name
		}
		good, here := "(not recorded)", "(none)"
		if d.A != nil {
			good = d.A.Value
		}
		if d.B != nil {
			here = d.B.Value
		}
		fmt.Fprintf(s.err, "  %s: good %s, here %s\n", label, good, here)
	}
}
