package systable

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// The coverage test starts strace, servers and compilers: none of them,
// and none of their fds, may outlive the tests.
func TestMain(m *testing.M) { testutil.Main(m) }
