// Package testutil gates tests on what the machine offers (root, ptrace,
// seccomp, a Debian package), builds the programs tests trace, and builds
// the environments tests run them in. It is the one place for that last
// part: namespaces (Unshare: a process in namespaces of its own, a target
// for --pid) and containers (Rootfs, ImportImage, StartContainer: images
// made with docker import from a root written as a tar stream, containers
// without a network). The scenarios' good and bad directory trees are
// written by package scenarios, which runs commands in them through
// unshare's mount namespaces.
//
// A test that needs something calls Require once; when it is missing the
// test is skipped with the reason. CI sets ENVBISECT_TEST_NO_SKIP=1, which
// turns every such skip into a failure, so no test silently never runs.
//
// InWorkNS scripts run in a process group of their own, bounded by
// ScriptTimeout (10 minutes, ENVBISECT_TEST_SCRIPT_TIMEOUT): a script that
// hangs, or a process it leaves behind holding its output pipe, has its
// group killed and fails its test with the output so far, instead of
// stopping the whole package at go test's -timeout.
package testutil
