// Package bisect is the search behind `envbisect locate`, over the
// objects that differ here (LocateObjects, materialized runs: "The object
// search" below) and, as its fallback, over recorded calls (Locate). Given
// the dependency graph of a trace recorded where the command works and a
// Runner that makes one semi-replay run here, it finds the start item or
// the resource that differs here whose replay makes the run pass, named
// by its first differing call (or, falling back, the first recorded call
// whose replay makes it pass: the thesis' Locate_cause), with the
// endpoint checks and skip handling of git bisect, and reports it
// (Report: plain data, whose types, JSON form and text live in package
// render, which presents every output). It never touches a kernel itself: the
// runs are the Runner's (package replay in the CLI, fakes in tests).
//
// # What the search runs over (space.go, differing.go, observe.go)
//
// A search runs over a list of units, the start items first; prefix index
// i (0..size) asks for the first i units to be replayed (Request). There
// are two lists:
//
//   - What differs here (render.SpaceDiffering), tried first. The run with
//     nothing replayed (the fail end) executes every recorded call it
//     makes, and its live results (Outcome.Live) compared with the
//     recorded ones (observer: align's Comparer after normalising
//     addresses, fd numbers, pids, times, inode numbers; directory
//     listings in order) say which dependency groups differ: a file with
//     every open and stat of it, a directory's listing, a connection, the
//     kernel's answers to one call (depgraph's groups, the resources a
//     user names). The units are the start items and those groups, in the
//     order of their first call; a run replays every call of each group it
//     asks for (Request.Groups), so no run gives the program the recorded
//     answer about an object and then the live one. A group whose answers
//     are the same in both environments is never a unit.
//   - Every replayable call (render.SpaceAll), the thesis' search and the
//     fallback: the calls whose action in the plan with every call asked
//     to be replayed (depgraph's Closure) is Replay or
//     ExecuteThenOverwrite, in seq order (Candidates); Request.Prefix is
//     the seq of candidates[i-1]. Calls left out execute whatever is
//     asked (memory management, process life, internal or input
//     resources, calls that never returned).
//
// Which of the asked calls really replay, and which must execute and be
// overwritten because an executed call needs them, is the closure's
// answer to Request.Asks, computed by the runner.
//
// # The search
//
//  1. The fail end: with nothing replayed the run must fail; if it passes
//     there is no failure here (NoFailure). With no candidate at all the
//     failure cannot be located in the trace (ReplayStillFails).
//
//  2. The pass end of what differs: every start item and differing group
//     replayed. When it fails: with start items and groups, the start
//     items alone are tried (a run that replays resources too can fail for
//     its own sake); then the groups the failing run reached and the fail
//     end did not are added (what it observed differing), up to
//     maxExpansions times, then once the groups it never reached (no run
//     observed them; a group observed the same here is never added, and
//     only environment groups are, never the command's input). When no
//     such run passes, the search falls back
//     to every call, and the report says why (SearchSpace.Fallback):
//     there the pass end is every call replayed (the start items alone
//     again when it fails), and a failure there is ReplayStillFails with
//     that run's divergences. An end whose step comes out Skip is run
//     once more; Skip again ends the search (Inconclusive). No culprit is
//     ever named when the ends did not hold.
//
//  3. Binary search with the invariant "index lo fails, index hi passes",
//     from lo = 0 and hi the pass end: test mid = (lo+hi)/2; a pass moves
//     hi, a fail moves lo. A skipped index is left alone and the nearest
//     untested index in (lo, hi) is tried instead, above before below
//     (mid+1, mid-1, mid+2, ...). When every index in (lo, hi) was skipped
//     the search ends Inconclusive, naming units lo..hi-1.
//
//  4. When hi = lo+1 unit hi-1 flips the verdict: a start item, a group or
//     a call. The flip is often a consequence (a stat that re-checks a
//     file whose content differs, the unlink of a file whose creation
//     failed), so the culprit is the first differing call of its group
//     (firstdiff.go), and the flip is kept as evidence (Culprit.Flip).
//     A group is named by one call (named): the first that reads the
//     resource and answered otherwise in the failing run at index lo
//     (Outcome.Live), an open of a kept file when only its metadata
//     differs, a read named by the open it reads through (the read is the
//     evidence), never a stat when the content differs. A call found by
//     the fallback is named so too, by its group, from that run's live
//     results and the fail end's for the calls that run replayed
//     (observedLive); when none of its group was seen to differ it is
//     named itself. One whose answers, and its group's, were the same as
//     recorded is not named (Inconclusive) once the search had seen
//     differing groups: the difference is not in it.
//
//  5. The unit found, k, is a suspect until confirmed (confirm.go). Over
//     what differs here: the set of causes found so far replayed alone
//     (and nothing else, start items included) must pass; when it fails,
//     the suspect is one cause of several, stays replayed, and the other
//     units of 0..k are bisected again, from that set (failing) to all of
//     0..k (passing), for the next cause, until the set passes (at most
//     maxCauses). A set of several is made 1-minimal (a cause whose
//     removal still passes is dropped), and for each cause the run
//     replaying every unit of 0..k but it must fail. Units after k are
//     left out: they may be consequences of a cause (files created under
//     another umask) and stand in for it. Runs are described by unit sets
//     (setRequest: Request.StartExcept leaves start items out), and a
//     request the search already decided is not run again (search.memo):
//     a suspect that is the first unit costs nothing. Over every call
//     (the fallback) the suspect call's resource alone must pass and
//     every call up to it but that resource's (Request.Except) must fail;
//     no further cause is searched for there, and a call that gave here
//     exactly the recorded return value and bytes (identicalHere), its
//     resource answering as recorded, is never named. A check that
//     disagrees ends the search as Unconfirmed, with the suspect and the
//     steps that disagreed. The report lists every cause (Report.Causes,
//     the first is the Culprit) and counts the confirmation runs
//     (ConfirmRuns, steps with role confirm) and those of the search for
//     further causes (CauseRuns, role cause) apart from Runs.
//
// With one run per step and no skips this takes at most 2 + ceil(log2 C)
// runs for C units (plus one per widening), against 2 + ceil(log2 M) for
// the M replayable calls of the fallback; confirmation adds at most 2 per
// cause, each further cause about log2 of the units left.
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
// more, and if that run disagrees the step is Skip. A tainted run
// (Outcome.Taint: its outcome can be an artifact of replay, such as a
// live read that met an empty stand-in, or a pass that skipped a recorded
// execve) is taken as Skip whatever the command gave, like `git bisect
// run`'s exit 125, and its step carries the reason (Step.Taint, and
// "tainted: ..." in the note). Nothing else is
// checked against neighbouring steps: in a bisection every tested index
// lies strictly between a failing and a passing one, so no single verdict
// can contradict the others; a flaky command that gives consistent wrong
// verdicts needs Repeat. Every run is in Report.Steps, with the verdict
// the step took (Taken) on the step's last run, and its
// Outcome.Divergences: where the run left the recording, including live
// calls that ran for real while their thread realigned, which cost no
// re-run.
//
// # The object search (objects*.go)
//
// LocateObjects searches over objects of the environment instead of
// recorded calls (issue 27): its candidates are the objects that differ
// here (envobj.Object: a file's content or metadata, a directory, a
// symbolic link, a path present on one side only; found by inspecting
// this environment against the trace, package envdiff) and the start
// items that differ, and each run is a materialized run: an ObjectRunner
// puts the good state of the objects a request names in place in the
// run's throwaway sandbox (ObjectRequest.Ops), starts the command with the
// request's start items at their good values, and lets it run live. A
// verdict is the exit status or check, as for call-level runs; nothing is
// replayed, so nothing can diverge or be tainted.
//
//  1. Candidates (envobj.Build): every start item, then one group per
//     package that owned objects in the good run, then the tree of the
//     other objects' directories, whose first level (the nodes under
//     their nearest common directory, a directory that holds one node
//     collapsed into it) are candidates of their own, and last the
//     objects whose modification time alone differs, as one group. An
//     object no run can put in place (Materializable: content the trace
//     does not keep, a device) is not a candidate; the report lists it
//     (Unplaced) for the call-level search.
//
//  2. The ends: nothing in place must fail (a pass is NoFailure), and
//     everything in place must pass. When everything fails (or nothing is
//     a candidate) the report is StillFails, names nothing, and
//     Result.Fallback tells the caller to search at the call level (Locate).
//     An end skipped twice is Inconclusive; with CheckRepeatable a second
//     run with nothing in place that passes is NotRepeatable.
//
//  3. Delta debugging (Zeller's ddmin) over the first level finds a set of
//     candidates that passes and from which no single one can be removed.
//     Each is then refined, with the others in place, level by level
//     (Misherghi and Su's hierarchical delta debugging), only as far as
//     the report needs: the highest object that is a cause is named. A
//     package is named whole unless one of its files alone passes (then
//     that file; found by halving, about 2·log2 n runs for n files, so a
//     package whose 41 files are needed together costs two runs, not 41).
//     A directory is descended into: ddmin over its children finds the
//     ones needed, each refined in turn, and when all are needed the
//     directory is named (one of more than maxGroupDD children is named
//     whole when no single child passes).
//
//  4. Confirmation (role confirm): the causes alone in place must pass, in
//     a run made afresh, the run that validates the fix; and for each
//     cause, everything else in place but it must fail. A check that does
//     not hold ends the search as Unconfirmed, with the suspects, and no
//     fix.
//
// Each cause is reported (envobj.ResultCause) with what differs in words
// ("/tmp is drwxr-xr-x here, drwxrwxrwt in the good run", "python3-yaml
// 6.0-3 is not installed here (41 files)"), its objects, the first
// recorded call that met it (FirstSeq; the caller adds the call's text,
// FirstCall) and its fix: the commands a user runs here to get the state
// the confirming run put in place ("mkdir -p /run/mpd", "chmod 1777 /tmp",
// "rm /etc/app.d/extra.conf", "export TZ=UTC", "apt-get install
// python3-yaml=6.0-3"; "restore /etc/app.conf from the good environment",
// to which the caller may add the diff). The report's Fix gathers them,
// Validated by that run (Fix.ValidatedBy is its step).
//
// Steps, repeats and the flaky guard follow the call-level search: a step
// runs ObjectOptions.Repeat times and takes the majority (a tie runs once
// more, then is Skip); a step skipped is decided once more and then
// counts as not passing. Every decided request is kept (memo) and never
// run again, except the confirming run of the causes alone. A verdict
// that contradicts one taken before, assuming that putting more good
// objects in place never undoes what others did (a pass where a request
// putting more in place failed, a fail where one putting less passed),
// is run once more, and when the re-run disagrees the step is Skip
// (noted "contradicts step N"). A flaky command can thus end a search
// Unconfirmed or Inconclusive, never with a cause the confirming runs did
// not bear out. With one run per step, a single cause among C candidates
// costs about 2 + 2·log2 C runs, plus one or two confirming; each further
// cause about as much again.
//
// The result is plain data of package envobj (Result; ObjectReport here),
// since bisect imports render and render presents it: MaterializedReport
// makes locate's report of it (Mechanism "materialized"), and AfterObjects
// adds it to the call-level report made when it fell back (Mechanism
// "call-level").
//
// # Errors
//
// Locate returns an error, and no report, when a run could not be made
// (the runner's error, wrapped with the run: "run with calls up to 21
// replayed: ...") or when ctx is done (wrapping ctx.Err()); a command that
// fails is a verdict, never an error. LocateObjects likewise ("run with
// /tmp + env TZ in place: ...").
//
// # Explanations (explain.go)
//
// A located culprit gets render.Facts and a sentence (render.Explain)
// from what the runs showed, with no run of their own: the live calls of
// the failing run next to it, completed with the fail end's (where every
// call executed, so a call the failing run replayed still has a live
// answer). For ENOENT, the calls on the path's parents before it: a call
// that succeeded on a path shows its parents exist here, an ENOENT on a
// parent itself shows it missing; the shallowest missing one whose parent
// exists is the component (else the report says it is not known). For
// EACCES and EPERM, the struct stat or statx buffers of calls on the path
// and its parents (mode, owner, group) in both runs, completed for the
// parents no call stat'ed with the stats record stored (Call.Dirs) and
// Options.StatHere's after the runs; the credentials start items
// (Options.Recorded, Options.Here), the calls of the culprit's process or
// its ancestors (up to the fork on the way down) that changed its ids
// (systable's ChangesCreds); and the umask item for a call that may
// create its path. For a library or executable whose content differs or
// that is missing here, the package record found owning it
// (FileObject.Package) and Options.PackageOwner's answer here. For EADDRINUSE, the
// address the call passed and Options.AddressHolder's answer, looked up
// once the runs have ended. Content differences are the data diff
// (a unified diff by go-udiff for text; sizes, first offset and both
// SHA-256 for binary data).
package bisect
