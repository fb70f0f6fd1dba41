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
