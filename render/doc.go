// Package render is where envbisect presents what its stages found, for
// people and for programs; the commands in cmd/envbisect only parse flags,
// wire the stages and pick an exit code. It prints
//
//   - a trace (show): strace-like text (Text), one JSON object per line
//     (JSON), and a per-syscall summary (Summary);
//   - two aligned traces (diff): WriteDiffText and WriteDiffJSON print an
//     align.Result;
//   - a dependency graph (deps): Deps prints depgraph's groups as a table,
//     one group with its calls, JSON or Graphviz dot;
//   - locate's report: LocateReport and its parts are plain data that
//     package bisect fills in (bisect.Report is the same type); their JSON
//     form is `locate --json`, WriteText the report for people,
//     WriteMarkdown the same as GitHub-flavoured Markdown for a CI job's
//     summary (`locate --format markdown`). A culprit's explanation
//     (Explain, explain.go) is one or two sentences made from its results,
//     its data diff, its start item and the Facts bisect gathered (the
//     missing component of a path, the modes and ids of a denied one, who
//     holds an address); a struct the call filled in (a stat) is explained
//     by its members that differ (StructDiff: decoded, the volatile ones
//     left out unless programs judge by them, as make does an mtime),
//     never as content: a function of one culprit, so each cause of a
//     report is explained alike. Each cause leads with its resource and
//     how it differs (CauseTitle: "file /etc/app.conf (content
//     differs)"), and keeps the search's flip as evidence (Flip,
//     FlipText: "replaying up to #44 flips the verdict; file
//     /etc/app.conf first differs at #40"; locate_firstdiff.go).
//     What the recorded run did that envbisect
//     cannot see (io_uring, a ptrace of its own) is found in its calls by
//     UnseenFinder (locate_unseen.go), which record also warns with.
//
// render imports the stages whose results it prints (align, depgraph) and
// never the search: bisect imports render, to print calls into its report
// and for the report's types, so render must not import bisect.
//
// It reads values only; opening the file is the caller's business, so the
// package can be fed synthetic traces in tests. Every call in every output
// is printed by the same decoder (CallString, NewJSONCall), so show, diff,
// deps and locate's report can never print one call two ways.
//
// # Mechanism
//
// Every renderer is driven the same way (Renderer): Begin once with the
// header and the start events, Event for each event in trace order, and
// Finish with the end frame (nil for a trace that was cut short). A call is
// decoded by the syscall table row of its number: each argument's Kind
// says how its register and the user memory captured for it (trace.Mem)
// become a value. A decoded value knows both of its forms, the C-like text
// and the JSON value, so the text and JSON outputs can never disagree on
// what a call did.
//
// Struct layouts that depend on the traced architecture (struct stat) are
// chosen by the trace header's Arch (or the table's), not by the
// architecture this binary runs on,
// so an arm64 trace prints correctly on an amd64 machine. Everything else
// decoded here (sockaddr, timespec, rlimit, pollfd, linux_dirent64) has the same
// layout on every 64-bit little-endian Linux.
//
// # Text format
//
// One line per call, as strace writes it, prefixed by who made the call:
//
//	[1] openat(AT_FDCWD, "/etc/hosts", O_RDONLY|O_CLOEXEC) = 3
//	[1] openat(AT_FDCWD, "/nope", O_RDONLY) = -1 ENOENT (No such file or directory)
//	[2:5] read(3, "hello\n", 4096) = 6
//	[1] exit_group(0) = ?
//
// [P] is the logical process P running on its main thread; [P:T] is
// logical thread T of process P when T is not the main thread. Logical
// thread numbers count across the whole trace, so the main thread of
// process 2 is often not thread 2. With Options.Seq each line starts with
// the call's global number, "#412 [1] openat(...)", the number every
// envbisect report uses.
//
// Strings and buffers are C string literals with non-printable bytes
// escaped (\n, \t, \x01), cut after Options.StringSize bytes with "..."
// after the closing quote. A buffer stored only in part at record time
// ends in "...<truncated, N of M bytes>"; one left out by --exclude-content
// prints as <excluded N bytes>; memory that could not be read prints as
// its address. Structs that are not decoded print as {...N bytes}.
//
// Process events are lines between markers, attributed like calls:
//
//	[1] --- started ---
//	[1] --- spawned [2] by fork ---
//	[2] --- spawned thread [2:5] by clone ---
//	[2] --- exec /bin/cat ["cat", "x"] ---
//	[2:5] +++ thread exited +++
//	[2] +++ exited with 1 +++
//	[3] +++ killed by SIGKILL +++
//
// A spawned process is made "by fork" (its own memory), "by vfork"
// (CLONE_VFORK, as posix_spawn) or "by clone" (shared memory), read from
// its clone flags; "started" marks a process with no traced parent.
//
// The header, the start events and the end frame print as comment lines
// starting with "# " (before the first call and after the last), which
// strace-reading tools skip:
//
//	# command: make test
//	# start: env LANG=C.UTF-8
//	# end: exited with 0; 1234 calls, 3 processes, 4 threads
//
// # Markdown format
//
// WriteMarkdown writes locate's report for $GITHUB_STEP_SUMMARY: a
// heading with the status, a summary line (command, culprit, runs), a
// section per cause (its call, results, data diff in a ```diff block),
// the text form's sentences (shared with it: locate_prose.go), and the
// steps as a table in a collapsed <details> block. Everything from a
// trace or a run is escaped (markdown.go): "|" and the characters with a
// Markdown meaning get a backslash, "<", ">" and "&" become entities,
// code spans and fences are longer than any run of backticks in the
// data, control characters print as C escapes. It is written over the
// report's JSON as well as its fields: the members of the report and of
// each cause that it does not lay out itself print as a generic list in
// JSON order, and the causes come from the JSON's "causes" when it has
// them, so a field added to the report cannot be left out of the
// Markdown.
//
// # JSON format
//
// One object per line, each with an "event" member first: "header",
// "start", "call", "spawn", "spawn_thread", "exec", "exit_thread", "exit",
// "end". Members appear in a fixed order. See JSONCall for the members of
// a call. When Options.Filter selects syscalls, only the selected calls
// are written (the text output, like strace, keeps process events). Strings and buffers are not cut unless Options.StringSize is
// set; buffers are objects carrying their length, their data (UTF-8 text
// when valid, base64 otherwise), and whether they were truncated or
// excluded.
package render
