package sandbox

import (
	"errors"
	"fmt"
	"io"

	"github.com/envbisect/envbisect/trace"
)

// Layers are Contents looked up in order: the first that has a content
// gives it. A materialized run's contents are the trace's files and the
// good values of kernel tunables, which come from the recording's reads
// rather than from a file of the trace.
type Layers []Contents

// OpenHash opens the content whose SHA-256 is h from the first layer
// that has it; the error says why none had.
func (ls Layers) OpenHash(h trace.Hash) (io.ReadCloser, error) {
	var errs []error
	for _, c := range ls {
		if c == nil {
			continue
		}
		rc, err := c.OpenHash(h)
		if err == nil {
			return rc, nil
		}
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		return nil, fmt.Errorf("no content %x: the run was given no contents", h[:6])
	}
	return nil, errors.Join(errs...)
}
