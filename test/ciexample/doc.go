// Package ciexample tests the GitHub Actions workflow of docs/ci.md,
// kept as a file of its own (docs/examples/envbisect.yml, which .ci/run
// checks with actionlint): the page shows the file as it is, and the
// locate step's shell recipe gives the step the intended status under
// both of GitHub's bash invocations (the default 'bash -e', and 'bash -eo
// pipefail' for 'shell: bash'), whatever locate exits with. The recipe is
// run by real bash with a stand-in envbisect that exits with a chosen
// status: the test is of the shell, not of locate.
package ciexample
