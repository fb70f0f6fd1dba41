// Package casestudies_test reproduces the thesis' three case studies with
// the real programs from Debian (internal/scenarios.Thesis): each program
// is recorded where it works and located where it fails, on this one
// machine, with the environments built from mount namespaces and bind
// mounts. See casestudies_test.go and docs/case-studies.md.
package casestudies_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }
