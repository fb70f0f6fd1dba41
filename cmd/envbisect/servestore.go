package main

import (
	"github.com/envbisect/envbisect/serve"
	"github.com/envbisect/envbisect/tracefile"
)

// contentStore returns the Store that serves the file contents trace t
// keeps to every run of this process (replay's one run, locate's runs,
// a locate worker's runs), or nil when t keeps no files. The caller
// closes it when its runs are over.
func contentStore(t *tracefile.Trace) *serve.Store {
	if t == nil || len(t.Files) == 0 {
		return nil // a version 1 trace, or an eBPF one: stand-ins stay empty
	}
	return serve.NewStore(t)
}
