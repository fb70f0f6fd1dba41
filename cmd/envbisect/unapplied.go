package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/trace"
)

// noteUnapplied tells the user which start items of the process's
// identity differ between the recording and here but cannot be given
// their good value by a run (capability sets, no_new_privs): locate
// never drops them silently. With docker set they are also said in
// docker run's words where the mapping is unambiguous.
func noteUnapplied(s streams, items []align.StartDiff, docker bool) {
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
		words := ""
		if docker {
			if w := dockerWords(d.Kind, d.Name, good, here); w != "" {
				words = " (here: " + w + ")"
			}
		}
		fmt.Fprintf(s.err, "  %s: good %s, here %s%s\n", label, good, here, words)
	}
}

// dockerWords says a difference the way a docker run flag sets it:
// "--cap-drop NET_RAW", "--security-opt no-new-privileges"; "" when no
// flag maps to it unambiguously.
func dockerWords(kind trace.StartKind, name, good, here string) string {
	switch {
	case kind == trace.StartCaps && name == "bounding":
		g, err1 := strconv.ParseUint(good, 16, 64)
		h, err2 := strconv.ParseUint(here, 16, 64)
		if err1 != nil || err2 != nil {
			return ""
		}
		var out []string
		for _, n := range trace.CapabilityNames(g &^ h) {
			out = append(out, "--cap-drop "+strings.TrimPrefix(n, "CAP_"))
		}
		for _, n := range trace.CapabilityNames(h &^ g) {
			out = append(out, "--cap-add "+strings.TrimPrefix(n, "CAP_"))
		}
		return strings.Join(out, " ")
	case kind == trace.StartNoNewPrivs && here == "1" && good == "0":
		return "--security-opt no-new-privileges"
	}
	return ""
}
