package depgraph

import (
	"testing"
	"unsafe"
)

// TestResourceSize: the graph of a trace holds a resource per open (a
// third of a million for cloop's million calls); a field added to
// Resource itself, rather than to resourceMore, grows every one of them.
func TestResourceSize(t *testing.T) {
	if n := unsafe.Sizeof(Resource{}); n > 48 {
		t.Errorf("a Resource is %d bytes, want at most 48: hold what only some kinds have in resourceMore", n)
	}
}

// TestCallInfoSize: the graph holds a callInfo per call (a million for
// cloop's trace); a field added to it grows every one.
func TestCallInfoSize(t *testing.T) {
	if n := unsafe.Sizeof(callInfo{}); n > 32 {
		t.Errorf("a callInfo is %d bytes, want at most 32", n)
	}
}

// TestEdgeSize: the graph of a million calls holds one or two million
// edges.
func TestEdgeSize(t *testing.T) {
	if n := unsafe.Sizeof(depEdge{}); n > 12 {
		t.Errorf("a depEdge is %d bytes, want at most 12", n)
	}
}
