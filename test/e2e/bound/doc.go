// Package bound holds end-to-end tests of issue 26: a run never holds
// more than its environment grants, whatever a trace asks for (a plain
// run by a user without privileges, replaying a crafted trace). The
// container cases live in test/e2e/containers.
package bound
