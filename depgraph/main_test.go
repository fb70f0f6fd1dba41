package depgraph

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// The tests read synthetic traces only; the check that they leave no fd
// or process behind is kept for when one records.
func TestMain(m *testing.M) { testutil.Main(m) }
