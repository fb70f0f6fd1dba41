package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/envbisect/envbisect/bisect"
)

// errAborted is the error of a locate stopped by --abort-on-signal.
var errAborted = errors.New("aborted")

// abortOnSignal makes r's runs that exited with status 128 or more, or
// were killed by a signal (bisect.Outcome.Abortive), stop the search with
// an error wrapping errAborted, as `git bisect run` stops at such a
// status instead of counting the run as bad.
func abortOnSignal(r bisect.Runner) bisect.Runner {
	return bisect.RunnerFunc(func(ctx context.Context, req bisect.Request) (bisect.Outcome, error) {
		out, err := r.Run(ctx, req)
		if err == nil && out.Abortive {
			return out, fmt.Errorf("%w by --abort-on-signal: run %d (%s replayed) gave %s, and git bisect run stops at a status of 128 or more",
				errAborted, req.Run, req, out.Detail)
		}
		return out, err
	})
}
