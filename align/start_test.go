package align

import (
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// TestCompareStartFDs: the descriptors the command started with are
// compared by the kind of object they are, not by a pipe's inode, which
// differs between any two runs; a descriptor on one side only, or another
// kind of object, differs; AllFields compares the values as they are.
func TestCompareStartFDs(t *testing.T) {
	fd := func(n, v string) trace.StartEvent { return trace.StartEvent{Kind: trace.StartFD, Name: n, Value: v} }
	a := []trace.StartEvent{fd("0", "/dev/null"), fd("1", "pipe:[100]"), fd("2", "pipe:[100]")}
	b := []trace.StartEvent{fd("0", "/dev/null"), fd("1", "pipe:[200]"), fd("2", "/dev/pts/0"), fd("251", "/dev/null")}
	got := map[string]StartDiff{}
	for _, d := range CompareStart(a, b, Options{}) {
		got[d.Name] = d
	}
	if _, ok := got["1"]; ok {
		t.Errorf("fd 1, a pipe on both sides, differs: %+v", got["1"])
	}
	if d, ok := got["2"]; !ok || d.A.Value != "pipe:[100]" || d.B.Value != "/dev/pts/0" {
		t.Errorf("fd 2, a pipe here and a terminal there: %+v", d)
	}
	if d, ok := got["251"]; !ok || d.A != nil || d.B == nil {
		t.Errorf("fd 251, on one side only: %+v", d)
	}
	if len(got) != 2 {
		t.Errorf("differences %v, want fds 2 and 251", got)
	}
	all := CompareStart(a, b, Options{AllFields: true})
	if len(all) != 3 {
		t.Errorf("with AllFields: %d differences, want 3 (the pipes' inodes too)", len(all))
	}
}
