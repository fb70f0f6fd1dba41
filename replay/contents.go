package replay

import (
	"fmt"
	"io"

	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/serve"
	"github.com/envbisect/envbisect/trace"
)

// TraceContents returns the Contents of a trace's file objects (files,
// read through src, such as a tracefile.Trace): the content of a hash is
// that of a file object whose content is stored and has that SHA-256.
func TraceContents(files []trace.FileObject, src serve.Source) sandbox.Contents {
	byHash := make(map[trace.Hash]*trace.FileObject)
	for i := range files {
		f := &files[i]
		if _, seen := byHash[f.SHA256]; !seen && f.Stored() && f.SHA256 != (trace.Hash{}) {
			byHash[f.SHA256] = f
		}
	}
	return traceContents{byHash: byHash, src: src}
}

type traceContents struct {
	byHash map[trace.Hash]*trace.FileObject
	src    serve.Source
}

func (c traceContents) OpenHash(h trace.Hash) (io.ReadCloser, error) {
	f := c.byHash[h]
	if f == nil {
		return nil, fmt.Errorf("the trace stores no file with content %x: %w", h[:6], serve.ErrNotStored)
	}
	return c.src.OpenContent(f)
}
