// Package sandbox_test runs locate with its sandbox on real commands that
// change the file system, in a mount namespace of the test's own with a
// tmpfs work tree, and checks that each run starts from the same state,
// that the located call is the one that really differs, and that the work
// tree is left as it was. See sandbox_test.go.
package sandbox_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }
