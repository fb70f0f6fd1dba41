// Package taint_test reproduces runs whose outcome is an artifact of
// semi-replay (tainted runs) with real programs in environments each test
// builds in a mount namespace of its own (testutil.InWorkNS), and checks
// that replay reports them as tainted, with the reason.
package taint_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }
