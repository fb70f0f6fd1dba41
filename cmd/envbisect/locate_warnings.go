package main

import (
	"context"
	"sync"

	"github.com/envbisect/envbisect/bisect"
)

// runWarnings gathers what the tracer warns of during one of locate's
// runs (replay.Options.Warn, called from the tracer's goroutines): the
// run's Outcome carries them, also back from a worker process, and the
// parent says each once (sayWarnings) and the report lists them.
type runWarnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *runWarnings) add(msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, msg)
}

func (w *runWarnings) list() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.msgs
}

// sayWarnings says the warnings of each run of run through warn (once
// each, when warn is warnOnce's), in the process that makes the search:
// with --jobs N, N workers' runs warn alike, and locate says it once.
func sayWarnings(run bisect.Runner, warn func(string)) bisect.Runner {
	return bisect.RunnerFunc(func(ctx context.Context, r bisect.Request) (bisect.Outcome, error) {
		out, err := run.Run(ctx, r)
		for _, w := range out.Warnings {
			warn(w)
		}
		return out, err
	})
}
