package memory

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// TestMain fails the run when a test leaves a process or fd behind.
func TestMain(m *testing.M) { testutil.Main(m) }
