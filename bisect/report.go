package bisect

import "github.com/envbisect/envbisect/render"

// The report of Locate is plain data whose types, JSON form and text
// (WriteText) belong to package render, which presents every output of
// envbisect; the search fills it in. The names below keep bisect's API.

type (
	// Report is the result of Locate: what `envbisect locate --json`
	// prints and WriteText prints for people.
	Report = render.LocateReport
	// Step is one run of the search.
	Step = render.LocateStep
	// Culprit is the located call, with what it gave in the good
	// environment and here.
	Culprit = render.Culprit
	// Result is what one call gave: in the recording (good) or live here.
	Result = render.CallResult
	// Buffer is one captured buffer.
	Buffer = render.CallBuffer
	// DataDiff says how the first differing output buffer differs.
	DataDiff = render.DataDiff
	// Group is the group of linked calls the culprit is in.
	Group = render.CulpritGroup
	// GroupCall is one call of a group.
	GroupCall = render.GroupCall
	// StartItem is a piece of the state the command starts with that
	// differs between the recording and here; Options.Start lists them.
	StartItem = render.StartItem
	// Divergence is a place where a run left the recording.
	Divergence = render.Divergence
	// Status is how a search ended.
	Status = render.LocateStatus
)

const (
	// Located: one recorded call was found whose replay turns the failure
	// into a pass.
	Located = render.Located
	// NoFailure: the command passed here with nothing replayed.
	NoFailure = render.NoFailure
	// ReplayStillFails: the command failed here even with every recorded
	// call replayed.
	ReplayStillFails = render.ReplayStillFails
	// Inconclusive: skipped or disagreeing runs left the search unable to
	// decide.
	Inconclusive = render.Inconclusive
	// NotRepeatable: runs that replay nothing disagreed; no call is named.
	NotRepeatable = render.NotRepeatable
	// Unconfirmed: the search ended at a suspect that the confirmation
	// runs disagreed with; no call is named (Report.Suspect).
	Unconfirmed = render.Unconfirmed
)
