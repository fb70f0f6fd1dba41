package bisect

import "github.com/envbisect/envbisect/verdict"

// Verdict is what one run says (package verdict): the replay engine
// decides it (exit status, a check command, a daemon that must stay up, a
// timeout); the search only reads it.
type Verdict = verdict.Verdict

const (
	// Pass: the run behaved as in the good environment.
	Pass = verdict.Pass
	// Fail: the run failed as it does here.
	Fail = verdict.Fail
	// Skip: the run could not tell (exit 125, a check that could not be
	// made); the search tries another prefix.
	Skip = verdict.Skip
)

// Status is how a search ended.
type Status string

const (
	// Located: one recorded call was found whose replay turns the failure
	// into a pass.
	Located Status = "located"
	// NoFailure: the command passed here with nothing replayed: there is
	// nothing to locate.
	NoFailure Status = "no-failure"
	// ReplayStillFails: the command failed here even with every recorded
	// call replayed (or the trace has no call that replay could change).
	ReplayStillFails Status = "replay-still-fails"
	// Inconclusive: skipped or disagreeing runs left the search unable to
	// decide; Report.Candidates holds the calls that could be the cause.
	Inconclusive Status = "inconclusive"
)
