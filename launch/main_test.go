package launch

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// The test binary is also the launcher's re-exec helper.
func TestMain(m *testing.M) {
	MaybeRunHelper()
	testutil.Main(m)
}
