// Package resources_test locates builds whose artifact differs between two
// environments by one thing each (issue 17): the order of a directory's
// listing, the umask, the TZ variable, a file's content read between two
// stats of it. Each test builds both environments in a mount namespace of
// its own (testutil.InWorkNS), records the build where it works, locates
// it where it does not with --check comparing the artifact's hash with
// the good build's, and asserts the culprit, status located, and that the
// search ran over the differing candidates (the report's "space") in at
// most ⌈log2 C⌉ + 3 runs. See report_test.go for what they read.
package resources_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }
