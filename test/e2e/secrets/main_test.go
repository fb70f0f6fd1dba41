// Package secrets_test records real programs that handle secrets (tokens
// in the environment, a private key file) and checks that the values
// and the key's bytes are nowhere in the trace file, decompressed, and
// that locate still says a redacted variable differs here.
package secrets_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }
