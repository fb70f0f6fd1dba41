package launch

import (
	"slices"

	"github.com/envbisect/envbisect/trace"
)

// withSpecLimits returns the resource limits the helper sets: the exec
// spec's, then limits (replayed start items), which win.
func withSpecLimits(spec *trace.ExecSpec, limits []trace.Limit) []trace.Limit {
	return append(slices.Clone(spec.Rlimits), limits...)
}
