package render

import "fmt"

// CauseLimit says that the call-level search stopped at its limit of
// causes (LocateReport.CauseLimit): each cause costs a search of its own,
// so the search looks for at most Limit.
type CauseLimit struct {
	// Limit is how many causes the search looks for at most.
	Limit int `json:"limit"`
	// Found are the causes found before it stopped, in the order found:
	// each was needed with the others, but together they did not make the
	// command pass, so none is confirmed.
	Found []*Culprit `json:"found"`
}

// causeLimitText says what happened when the search stopped at its limit
// of causes, and what to do: not more runs per step (the runs agreed),
// but a smaller difference.
func causeLimitText(r *LocateReport) string {
	l := r.CauseLimit
	s := fmt.Sprintf("None is named: each cause costs a search of its own, the search looks for %d at most, and a set "+
		"that is not complete cannot be confirmed. This is not flakiness: more runs per step would not change it. Make "+
		"the difference smaller and locate again: bring this environment closer to the good one (the causes found so "+
		"far are a start), or record the command where the environment is closer to this one.", l.Limit)
	if r.fellBack() {
		return s + " The object search, which takes a package or a directory of differing files as one cause, was " +
			"tried first and could not name them either (below)."
	}
	return s + " Or search the objects of the environment, where a package or a directory of differing files is " +
		"one cause: locate without --materialize=false."
}

// causeLimitFoundText introduces the causes found before the limit.
func causeLimitFoundText(l *CauseLimit) string {
	return fmt.Sprintf("Causes found so far (%s, each needed with the others; more remain):", count(len(l.Found), "cause", "causes"))
}

// objectSearchCommand is locate again with the object search (the
// default), for a report of the call-level search alone.
func objectSearchCommand(r *LocateReport) string {
	return "envbisect locate" + r.flagsText() + " " + r.tracePathOr() + " -- " + r.commandOr()
}
