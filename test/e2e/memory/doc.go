// Package memory holds end-to-end tests of issue 29's memory bound for
// the call-level search: `locate --materialize=false` and `replay` of a
// long trace, their peak RSS under a bound per recorded call. The
// object search's bound is test/e2e/materialize's TestMaterializeMemory.
// The tests measure memory, never time.
package memory
