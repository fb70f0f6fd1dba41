// Package verdict judges one run of the command, as `git bisect run`
// does: exit status 0 passes, 125 means "cannot tell" (skip), anything
// else fails. A Spec extends this the ways the thesis' case studies
// need: a check command whose exit status is the verdict instead (run
// after the command exits, or, with Alive, while it is still running, as
// a client checks a server), a daemon that must still be running after a
// duration, and a timeout.
//
// record uses it to tell the user when the run being recorded did not
// pass (such a trace can locate nothing); replay and locate use it for
// every semi-replay run. The parts that must happen while the command
// runs (the deadline, the check against a live server) are carried out by
// the launcher (trace.Watch, which Spec.Watch fills in); Judge reads the
// outcome and runs a check that comes after the command's exit.
package verdict
