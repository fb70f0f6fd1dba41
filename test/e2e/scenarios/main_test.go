// Package scenarios_test runs the end-to-end cases of internal/scenarios:
// each victim recorded in its good environment and located in its bad one
// by the real envbisect binary. See scenarios_test.go.
package scenarios_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }
