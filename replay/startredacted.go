package replay

import (
	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/trace"
)

// Redacted start items. A recording keeps the value of a variable whose
// name looks like a secret only as a salted scrypt hash
// (trace.StartEvent.Redacted, with Header.Salt): the value here is hashed
// the same way and compared. An equal hash is no difference; a different
// one, or a variable set on one side only, is a difference no run can
// apply (the good value is not in the trace), returned apart for the
// report to list with --keep-env as the remedy. A live item that differs
// carries no value either: the report never prints a secret of here.

// splitRedacted takes the recorded events that are redacted out of rec,
// and their live counterparts out of live, and returns those that differ.
func (r *Recording) splitRedacted(rec, live []trace.StartEvent) (recOut, liveOut []trace.StartEvent, differ []align.StartDiff) {
	redacted := map[string]*trace.StartEvent{}
	for i := range rec {
		if e := &rec[i]; e.Redacted != "" && e.Kind == trace.StartEnv {
			redacted[e.Name] = e
			continue
		}
		recOut = append(recOut, rec[i])
	}
	if len(redacted) == 0 {
		return rec, live, nil
	}
	here := map[string]bool{}
	for _, e := range live {
		a := redacted[e.Name]
		if e.Kind != trace.StartEnv || a == nil {
			liveOut = append(liveOut, e)
			continue
		}
		here[e.Name] = true
		same, err := trace.SecretMatches(r.Trace.Header.Salt, e.Name, e.Value, a.Redacted)
		if same && err == nil {
			continue
		}
		b := &trace.StartEvent{Kind: e.Kind, Name: e.Name, Redacted: "differs"}
		differ = append(differ, align.StartDiff{Kind: e.Kind, Name: e.Name, A: a, B: b})
	}
	for _, a := range rec {
		if a.Redacted != "" && a.Kind == trace.StartEnv && !here[a.Name] {
			differ = append(differ, align.StartDiff{Kind: a.Kind, Name: a.Name, A: redacted[a.Name]})
		}
	}
	return recOut, liveOut, differ
}
