package replay

import (
	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/trace"
)

// Resource limits a run cannot set in full. A recorded hard limit above
// the one the command gets here needs CAP_SYS_RESOURCE (launch's
// LimitReach): where envbisect lacks it, a run sets as much of the good
// value as it can (the soft limit up to the hard one here) and the item
// is also returned as unapplied, for the report to list with the reason;
// when a run can change nothing (the limit here is already as near as it
// can get), the item is unapplied only and no run tries it. Nothing is
// left for a run's helper to refuse.

// LimitReach returns what a run bounded by b can set the limit name to,
// recorded as good, when the command would start here with here ("1024
// 4096" each); ok is false when either value does not read as a limit.
func LimitReach(name, good, here string, b launch.Bound) (reach launch.LimitInReach, ok bool) {
	g, err1 := trace.ParseLimit(name, good)
	h, err2 := trace.ParseLimit(name, here)
	if err1 != nil || err2 != nil {
		return launch.LimitInReach{}, false
	}
	return launch.LimitReach(g, h, b), true
}

// limitsInReach splits the limits among items by what a run can set:
// those it can set in full or in part are kept, those it can set only in
// part or not at all are unapplied.
func limitsInReach(items []align.StartDiff, b launch.Bound) (kept, unapplied []align.StartDiff) {
	for _, d := range items {
		if d.Kind != trace.StartRlimit || d.A == nil || d.B == nil {
			kept = append(kept, d)
			continue
		}
		reach, ok := LimitReach(d.Name, d.A.Value, d.B.Value, b)
		if !ok || reach.Full {
			kept = append(kept, d)
			continue
		}
		unapplied = append(unapplied, d)
		if here, err := trace.ParseLimit(d.Name, d.B.Value); err == nil && reach.Limit != here {
			kept = append(kept, d) // a run gets part of the way
		}
	}
	return kept, unapplied
}

// limitInReach is the value a run bounded by b sets for the recorded
// limit l of item it: l, or as much of it as b allows.
func limitInReach(it align.StartDiff, l trace.Limit, b launch.Bound) trace.Limit {
	if it.B == nil {
		return l
	}
	here, err := trace.ParseLimit(it.Name, it.B.Value)
	if err != nil {
		return l
	}
	return launch.LimitReach(l, here, b).Limit
}
