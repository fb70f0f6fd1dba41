package main

import (
	"github.com/envbisect/envbisect/serve"
	"github.com/envbisect/envbisect/tracefile"
)

// contentStore returns the Store that serves the file contents trace t
// keeps to every run of this process (replay's one run, locate's runs,
// a locate worker's runs), or nil when t keeps none. The caller closes
// it when its runs are over.
func contentStore(t *tracefile.Trace) *serve.Store {
	if t == nil {
		return nil
	}
	src, ok := any(t).(serve.Source)
	if !ok {
		return nil // a reader without file objects: stand-ins stay empty
	}
	return serve.NewStore(src)
}
