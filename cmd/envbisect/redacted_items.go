package main

import (
	"fmt"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
)

// sayRedacted marks the unapplied items that are redacted variables
// (items[i] made from diffs[i]): their values are shown as redacted,
// never as the value here, with why no run could try them and the
// remedy, --keep-env.
func sayWhyRedacted(items []render.StartItem, diffs []align.StartDiff) {
	for i := range items {
		if i >= len(diffs) || diffs[i].Kind != trace.StartEnv || diffs[i].A == nil || diffs[i].A.Redacted == "" {
			continue
		}
		it, d := &items[i], diffs[i]
		good := trace.RedactedMarker
		it.Good = &good
		if d.B != nil {
			here := "<redacted: a different value>"
			it.Here = &here
		}
		it.Why = "its value looked like a secret and was redacted at record time: the trace keeps only a salted hash, which says it differs but cannot be replayed"
		it.Remedy = fmt.Sprintf("to let locate try it, record again with --keep-env %s", d.Name)
	}
}
