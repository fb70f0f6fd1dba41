package ptrace

import "github.com/envbisect/envbisect/trace"

// RedirectObserver is implemented by a Replayer that wants to know about
// the creations a semi-replay run made in its scratch area because they
// could not happen here (see redirect_linux.go). Redirected runs on the
// tracer thread, after the Replayer's Exit for the call, and must not
// block.
type RedirectObserver interface {
	Redirected(r trace.Redirect)
}
