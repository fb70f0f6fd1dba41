// Package materialize holds the end-to-end tests of locate --materialize
// (issue 27): one real program per class of regression, recorded in a
// good environment and located in a bad one that the test builds in a
// mount (and network) namespace of its own (testutil.InWorkNS: bind
// mounts over the real paths, never the host's). Each test asserts that
// the object search located the one cause it should (the object,
// directory or package, and what differs), with a validated fix, that no
// other cause is named, and that the runs of the search were not traced:
// the command writes its TracerPid to stderr in every run, and the logs
// of the object runs (--logs, run-NNN-object*.log) must all say 0.
//
// The classes: a service a shell polls for with a sleep loop (Python's
// http.server), a static Go binary resolving a name from /etc/hosts, an
// interpreter loading its library sources from a PYTHONPATH directory, a
// Debian package whose files are missing here (liberror-perl,
// python3-yaml), mktemp's random names in a spool directory whose mode
// differs, a drop-in directory with an extra file (apt-config and
// /etc/apt/apt.conf.d), a JVM program whose java.security differs, a
// preflight check of a kernel tunable (net.core.somaxconn, in network
// namespaces of the test's own).
//
// One test bounds the memory of the search instead (issue 29): locate of
// a 200,000-call trace, whose peak RSS (its rusage) must stay under a
// base and 100 bytes a call.
//
// It has no code of its own: see the _test files.
package materialize
