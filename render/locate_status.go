package render

import (
	"fmt"
	"strconv"
	"strings"
)

// LocateStatus is how a search ended.
type LocateStatus string

const (
	// Located: one recorded call was found whose replay turns the failure
	// into a pass.
	Located LocateStatus = "located"
	// NoFailure: the command passed here with nothing replayed: there is
	// nothing to locate.
	NoFailure LocateStatus = "no-failure"
	// ReplayStillFails: the command failed here even with every recorded
	// call replayed (or the trace has no call that replay could change).
	ReplayStillFails LocateStatus = "replay-still-fails"
	// Inconclusive: skipped or disagreeing runs left the search unable to
	// decide; LocateReport.Candidates holds the calls that could be the
	// cause.
	Inconclusive LocateStatus = "inconclusive"
	// NotRepeatable: runs that replay nothing disagreed (the fail end
	// run twice, or again at the end of the search): the command is flaky
	// or depends on state outside the sandbox, and no call is named.
	NotRepeatable LocateStatus = "not-repeatable"
	// Unconfirmed: the search ended at a suspect, but the runs that
	// confirm a culprit disagreed (replaying it alone did not make the
	// command pass, or replaying everything but it did), or its results
	// here were the same as recorded; LocateReport.Suspect is what the
	// search ended at and Disagreeing the steps that disagreed.
	Unconfirmed LocateStatus = "unconfirmed"
)

// Roles of a step that is not part of the search proper
// (LocateStep.Role).
const (
	// RoleConfirm: a run that confirms a cause (its resource alone, or
	// everything but it).
	RoleConfirm = "confirm"
	// RoleCause: a run of the search for a further cause, or of the
	// check that the set of causes is 1-minimal.
	RoleCause = "cause"
	// RoleObserve: the traced run with nothing in place that shows where
	// the program met the object search's causes (its verdict decides
	// nothing).
	RoleObserve = "observe"
)

// ExceptText is what a run leaves out of what it replays, appended to
// ResourcesText or ReplayedText: " but 1 start item and 1 resource".
func ExceptText(start, resources int) string {
	var parts []string
	if start > 0 {
		parts = append(parts, plural(uint64(start), "1 start item", fmt.Sprintf("%d start items", start)))
	}
	if resources > 0 {
		parts = append(parts, plural(uint64(resources), "1 resource", fmt.Sprintf("%d resources", resources)))
	}
	if len(parts) == 0 {
		return ""
	}
	return " but " + strings.Join(parts, " and ")
}

// AllCalls is the prefix that asks for every recorded call to be
// replayed (bisect.All).
const AllCalls = ^uint64(0)

// ResourcesText says what a run of a search over differing resources
// replays: "start 1-2 + 3 resources", "1 resource".
func ResourcesText(start, resources int) string {
	r := fmt.Sprintf("%d resources", resources)
	if resources == 1 {
		r = "1 resource"
	}
	if start > 0 {
		return fmt.Sprintf("start 1-%d + %s", start, r)
	}
	return r
}

// ReplayedText says what a run replays, as the report's step table does:
// "none", "all", "up to 21", "start 1-2". start is how many start items
// are replayed, prefix the seq of the last call replayed (0: none,
// AllCalls: every one).
func ReplayedText(start int, prefix uint64) string {
	switch {
	case prefix == 0 && start > 0:
		return fmt.Sprintf("start 1-%d", start)
	case prefix == 0:
		return "none"
	}
	switch prefix {
	case AllCalls:
		return "all"
	}
	return "up to " + strconv.FormatUint(prefix, 10)
}
