// Package bisect is the search behind `envbisect locate`: given the
// dependency graph of a trace recorded where the command works and a
// Runner that makes one semi-replay run here, it finds the first recorded
// call whose replay makes the run pass (the thesis' Locate_cause), with
// the endpoint checks and skip handling of git bisect, and reports it
// (Report: plain data, whose types, JSON form and text live in package
// render, which presents every output). It never touches a kernel itself: the
// runs are the Runner's (package replay in the CLI, fakes in tests).
//
// # Candidates and prefixes
//
// Not every recorded call can be replayed: the plan with every call asked
// to be replayed (depgraph's Closure) still executes memory management,
// process life, calls on internal or input resources and calls that never
// returned. Those calls execute whatever is asked, so the search runs
// over the others only, the candidates (Candidates): the calls whose
// action in that plan is Replay or ExecuteThenOverwrite, in seq order.
// With M candidates, prefix index i (0..M) asks for candidates[0..i-1] to
// be replayed: Request.Prefix is the seq of candidates[i-1] (every call
// with seq <= Prefix is asked), 0 for i = 0 and All for i = M. Which of
// the asked calls really replay, and which must execute and be
// overwritten because an executed call needs them, is the closure's
// answer to Request.Replayed, computed by the runner.
//
// # The search
//
//  1. The ends, fail end first. With nothing replayed (i = 0) the run must
//     fail: if it passes there is no failure here (NoFailure). With no
//     candidates the failure cannot be located in the trace
//     (ReplayStillFails). With everything replayed (i = M) the run must
//     pass: if it fails and start items are candidates, the run with the
//     start items alone (index len(Options.Start), no call) is made, and
//     when it passes it is the pass end (a run that replays calls too can
//     fail for its own sake); otherwise the difference is not in the
//     system-call interface or the run diverged (ReplayStillFails, with
//     the everything-replayed run's divergences). An end whose step comes
//     out Skip is run once more;
//     Skip again ends the search (Inconclusive). No culprit is ever named
//     when the ends did not hold.
//  2. Binary search with the invariant "index lo fails, index hi passes",
//     from lo = 0, hi = M: test mid = (lo+hi)/2; a pass moves hi, a fail
//     moves lo. A skipped index is left alone and the nearest untested
//     index in (lo, hi) is tried instead, above before below (mid+1,
//     mid-1, mid+2, ...). When every index in (lo, hi) was skipped the
//     search ends Inconclusive, naming candidates[lo..hi-1], one of which
//     is the cause.
//  3. When hi = lo+1 the culprit is candidates[hi-1]: replaying it (with
//     the calls before it) passes, executing it fails. Its live result is
//     taken from the run at index lo, the failing run in which it
//     executed (Outcome.Live); when that run never made the call, the
//     report says it did not happen in this environment.
//
// With one run per step and no skips this takes at most 2 + ceil(log2 M)
// runs.
//
// # Steps, repeats and divergences
//
// A step is one question, "does index i pass?", and may take several
// runs. With Options.Repeat = n the step runs n times and takes the
// verdict most runs gave; on a tie it runs once more, and a tie after
// that makes the step Skip. A run that diverged from the recording
// (Outcome.Diverged: a thread that could not be realigned ran for real
// from there on) keeps its verdict, but the verdict is suspect:
// when every run that gave the step's verdict diverged, the step runs once
// more, and if that run disagrees the step is Skip. Nothing else is
// checked against neighbouring steps: in a bisection every tested index
// lies strictly between a failing and a passing one, so no single verdict
// can contradict the others; a flaky command that gives consistent wrong
// verdicts needs Repeat. Every run is in Report.Steps, with the verdict
// the step took (Taken) on the step's last run, and its
// Outcome.Divergences: where the run left the recording, including live
// calls that ran for real while their thread realigned, which cost no
// re-run.
//
// # Errors
//
// Locate returns an error, and no report, when a run could not be made
// (the runner's error, wrapped with the run: "run with calls up to 21
// replayed: ...") or when ctx is done (wrapping ctx.Err()); a command that
// fails is a verdict, never an error.
package bisect
