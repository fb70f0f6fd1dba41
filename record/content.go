package record

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// DefaultMaxContent is --max-content's default: the raw bytes of file
// content a trace keeps, enough for a typical dynamically linked program
// and its libraries (mpd's 290 libraries are 217 MB).
const DefaultMaxContent = 512 << 20

// contentQueue bounds the files waiting for the content goroutine; the
// tracer waits beyond it.
const contentQueue = 4096

// contentStore is the ptrace.FileSink of a recording: it takes each
// distinct file the tracer opened and, on a goroutine of its own, reads,
// hashes and stores it (tracefile.ContentWriter), deciding what is kept:
// a path matching --exclude-content keeps its hash only (excluded), and
// so does a file that would take the content past --max-content
// (over-budget), in the order the command opened them.
type contentStore struct {
	cw      *tracefile.ContentWriter
	exclude launch.ContentFilter
	max     uint64 // raw content bytes to keep; 0: none

	queue chan keptFile
	done  chan struct{}

	mu   sync.Mutex
	used uint64 // raw bytes kept so far
	over []trace.FileObject
	err  error // the first write error; later files are dropped
}

type keptFile struct {
	f   *os.File
	obj *trace.FileObject
}

func newContentStore(w *tracefile.Writer, exclude []string, max uint64) (*contentStore, error) {
	filter, err := launch.NewContentFilter(exclude)
	if err != nil {
		return nil, err
	}
	cw, err := w.NewContentWriter()
	if err != nil {
		return nil, err
	}
	c := &contentStore{cw: cw, exclude: filter, max: max,
		queue: make(chan keptFile, contentQueue), done: make(chan struct{})}
	go c.run()
	return c, nil
}

// Keep implements ptrace.FileSink: it queues the file for the content
// goroutine, and returns at once unless contentQueue files are waiting.
func (c *contentStore) Keep(f *os.File, obj *trace.FileObject) {
	c.queue <- keptFile{f, obj}
}

func (c *contentStore) run() {
	defer close(c.done)
	for k := range c.queue {
		c.mu.Lock()
		failed := c.err != nil
		c.mu.Unlock()
		if failed {
			if k.f != nil {
				k.f.Close()
			}
			continue
		}
		err := c.store(k)
		if k.f != nil {
			k.f.Close()
		}
		if err != nil {
			c.mu.Lock()
			c.err = err
			c.mu.Unlock()
		}
	}
}

// store decides what of k is kept and writes it.
func (c *contentStore) store(k keptFile) error {
	obj := k.obj
	var src io.Reader = unreadable{}
	if k.f != nil {
		src = k.f
	}
	keep := true
	switch {
	case k.f == nil:
		// StoreFile marks it unreadable.
	case c.exclude.Excludes(obj.Path) || (obj.Resolved != "" && c.exclude.Excludes(obj.Resolved)):
		obj.Why, keep = trace.ContentExcluded, false
	case c.used+uint64(obj.Size) > c.max:
		obj.Why, keep = trace.ContentOverBudget, false
	default:
		c.used += uint64(obj.Size)
	}
	if err := c.cw.StoreFile(obj, src, keep); err != nil {
		return fmt.Errorf("store %s: %w", obj.Path, err)
	}
	if obj.Why == trace.ContentOverBudget {
		c.mu.Lock()
		c.over = append(c.over, *obj)
		c.mu.Unlock()
	}
	return nil
}

// close waits until every queued file is stored. It returns the files
// over the budget, largest first, and the first write error.
func (c *contentStore) close() ([]trace.FileObject, error) {
	close(c.queue)
	<-c.done
	c.cw.Close()
	slices.SortStableFunc(c.over, func(a, b trace.FileObject) int {
		switch {
		case a.Size > b.Size:
			return -1
		case a.Size < b.Size:
			return 1
		}
		return 0
	})
	return c.over, c.err
}

// unreadable is the content of a file the tracer could not open.
type unreadable struct{}

func (unreadable) Read([]byte) (int, error) {
	return 0, errors.New("the tracer could not open it")
}
