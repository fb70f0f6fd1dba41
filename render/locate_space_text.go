package render

import (
	"fmt"
	"slices"
	"strings"
)

// spaceTextResources is how many differing resources the text names.
const spaceTextResources = 5

// space says what the search ran over.
func (t *textWriter) space(r *LocateReport) {
	if s := spaceText(r); s != "" {
		t.para(s)
	}
}

// spaceText says what the search ran over: the start items and resources
// that differ here, or every replayable call and why; "" when the report
// does not say.
func spaceText(r *LocateReport) string {
	sp := r.Space
	if sp == nil {
		return ""
	}
	titles := make([]string, len(sp.Resources))
	for i, res := range sp.Resources {
		titles[i] = res.Title
	}
	titles = limitNames(titles, spaceTextResources)
	items := count(r.StartItems, "start item", "start items")
	if len(sp.StartItems) > 0 {
		items += " (" + strings.Join(limitNames(sp.StartItems, spaceTextResources), ", ") + ")"
	}
	if sp.Over == SpaceDiffering {
		s := "Searched over what differs here: " + count(len(sp.Resources), "resource", "resources")
		if r.StartItems > 0 {
			s = "Searched over what differs here: " + items + " and " + count(len(sp.Resources), "resource", "resources")
		}
		if len(titles) > 0 {
			s += " (" + strings.Join(titles, ", ") + ")"
		}
		return s + ", each replayed whole in a run."
	}
	s := fmt.Sprintf("Searched over every replayable call (%d), by prefix", r.ReplayableCalls)
	if r.StartItems > 0 {
		s = fmt.Sprintf("Searched over every replayable call (%d, after %s), by prefix", r.ReplayableCalls, items)
	}
	if sp.Fallback != "" {
		s += ": " + sp.Fallback
	}
	if len(titles) > 0 {
		s += " (differing: " + strings.Join(titles, ", ") + ")"
	}
	return s + "."
}

// count is "1 thing" or "N things".
func count(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, plural(uint64(n), one, many))
}

// limitNames is names cut to the first n, then "K more".
func limitNames(names []string, n int) []string {
	if len(names) <= n {
		return names
	}
	return append(slices.Clone(names[:n]), fmt.Sprintf("%d more", len(names)-n))
}
