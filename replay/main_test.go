package replay

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/tracer"
)

// The test binary is also the tracer's re-exec helper.
func TestMain(m *testing.M) {
	tracer.MaybeRunHelper()
	testutil.Main(m)
}
