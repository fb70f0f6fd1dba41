// Package serve_test records real programs in a good environment and
// locates them in a bad one that each test builds in a mount namespace
// of its own (testutil.InWorkNS: bind mounts over the paths that differ,
// never the host's): the cases where a replayed call must hand the
// program the good environment's object (a library, a tool, a mapped
// file, a directory it cannot create here, an address held here).
package serve_test

import (
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }
