package main

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// testutil.Main fails the run on processes or descriptors the tests
// leave behind and removes the envbisect binary they build.
func TestMain(m *testing.M) {
	testutil.Main(m)
}
