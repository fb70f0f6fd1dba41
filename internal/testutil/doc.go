// Package testutil gates tests on what the machine offers (root, ptrace,
// seccomp, a Debian package) and builds the programs tests trace.
//
// A test that needs something calls Require once; when it is missing the
// test is skipped with the reason. CI sets ENVBISECT_TEST_NO_SKIP=1, which
// turns every such skip into a failure, so no test silently never runs.
package testutil
