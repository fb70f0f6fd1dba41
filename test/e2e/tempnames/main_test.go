// Package tempnames_test locates regressions in programs that make
// temporary files with generated names (issue 14, deliver 4): mktemp and
// Python's tempfile.mkstemp give the file another random name in every
// run, so the live calls on it never have their recorded counterparts'
// paths. Each test builds both environments in a mount namespace of its
// own (testutil.InWorkNS, $TMPDIR in its work tree), records where the
// command works, locates where it fails, and asserts the culprit: a
// config that differs elsewhere, or the open of the temporary file
// itself in a directory the command (run as nobody) cannot write here.
package tempnames_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }
