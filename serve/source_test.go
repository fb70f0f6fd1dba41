package serve_test

import (
	"github.com/envbisect/envbisect/serve"
	"github.com/envbisect/envbisect/tracefile"
)

// A trace read by package tracefile is what a Store serves from.
var _ serve.Source = (*tracefile.Trace)(nil)
