package launch

import "github.com/envbisect/envbisect/trace"

// withSpecLimits returns the resource limits the helper sets: the exec
// spec's, then limits (replayed start items), which win.
func withSpecLimits(spec *trace.ExecSpec, limits []trace.Limit) []trace.Limit {
	out := make([]trace.Limit, 0, len(spec.Rlimits)+len(limits))
	for _, r := range spec.Rlimits {
		out = append(out, trace.Limit{Resource: r.Resource, Cur: r.Cur, Max: r.Max})
	}
	return append(out, limits...)
}
