package record

import (
	"path/filepath"
	"strings"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/trace"
)

// cacheReachWarner is an observer in front of a recording's batcher that
// warns, once, when a call of the command names the content cache's
// directory or a path in it (tar or zip of a tree that holds it, find,
// du). Nothing is written to the cache while the command runs
// (cacheupdate.go), but what earlier recordings left there is in the
// command's view, and the default cache is under HOME, which a build may
// archive: the user should move the cache out of the trees the command
// reads. Every event is passed on.
type cacheReachWarner struct {
	launch.Observer
	dir    string // the cache's directory, cleaned and absolute
	warn   func(string)
	warned bool
}

// newCacheReachWarner returns o behind a cacheReachWarner for the cache
// in dir, or o itself when dir is not an absolute path the command names
// (no cache, or a run in a container, whose root is another).
func newCacheReachWarner(o launch.Observer, dir string, join *trace.Join, warn func(string)) launch.Observer {
	if dir == "" || join != nil || warn == nil {
		return o
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return o
	}
	return &cacheReachWarner{Observer: o, dir: abs, warn: warn}
}

// Event implements launch.Observer. It runs on the tracer thread: two
// prefix comparisons per call.
func (w *cacheReachWarner) Event(ev trace.Event) {
	if c := ev.Call; c != nil && !w.warned {
		for _, p := range []string{c.Path, c.Path2} {
			if p == w.dir || strings.HasPrefix(p, w.dir+"/") {
				w.warned = true
				w.warn("record: the command reached " + p + ", in the content cache: the cache is written only after the command exits, " +
					"but what earlier recordings left in it is part of what the command saw; keep the cache out of the trees the command " +
					"reads (--content-cache DIR) or record with --no-content-cache")
				break
			}
		}
	}
	w.Observer.Event(ev)
}
