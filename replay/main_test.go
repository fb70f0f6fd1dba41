package replay

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/launch"
)

// The test binary is also the tracer's re-exec helper.
func TestMain(m *testing.M) {
	launch.MaybeRunHelper()
	testutil.Main(m)
}
