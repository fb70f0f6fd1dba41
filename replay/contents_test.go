package replay

import (
	"crypto/sha256"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/serve"
	"github.com/envbisect/envbisect/trace"
)

// fakeSource serves file objects' contents from memory.
type fakeSource map[uint32]string

func (f fakeSource) File(id uint32) *trace.FileObject { return nil }

func (f fakeSource) OpenContent(fo *trace.FileObject) (io.ReadCloser, error) {
	return io.NopCloser(strings.NewReader(f[fo.ID])), nil
}

// TestTraceContents: a hash is served from a stored file object with that
// content; one whose content the trace does not keep is not.
func TestTraceContents(t *testing.T) {
	a, b := sha256.Sum256([]byte("a\n")), sha256.Sum256([]byte("b\n"))
	files := []trace.FileObject{
		{ID: 1, Path: "/etc/a", Size: 2, SHA256: a, Chunks: []trace.Hash{a}},
		{ID: 2, Path: "/etc/b", Size: 2, SHA256: b, Why: trace.ContentOverBudget},
	}
	c := TraceContents(files, fakeSource{1: "a\n", 2: "b\n"})
	rc, err := c.OpenHash(a)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	if string(got) != "a\n" {
		t.Errorf("content of /etc/a: %q", got)
	}
	if _, err := c.OpenHash(b); !errors.Is(err, serve.ErrNotStored) {
		t.Errorf("content the trace does not keep: %v, want ErrNotStored", err)
	}
}
