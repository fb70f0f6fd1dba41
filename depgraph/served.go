package depgraph

import (
	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/trace"
)

// Files are the file objects of a trace: the good environment's files
// the recorded command opened, mapped or ran (trace.FileObject), named by
// the calls' Obj. Whether the trace keeps a file's content decides
// whether a replayed open can hand out the good file (package serve does
// it). tracefile's Trace is one.
type Files interface {
	// File returns the file object with id, or nil.
	File(id uint32) *trace.FileObject
}

// serves reports whether the stand-in of a replay of call i can hold the
// file it opened: i made an fd on a regular file whose content the trace
// keeps. Otherwise it says why not, for the plan ("" when i made no file
// at all, or the graph has no file objects: nothing to serve).
func (g *Graph) serves(i int32, res ResourceID) (ok bool, why string) {
	r := g.Resource(res)
	ci := &g.info[i]
	if r == nil || r.Kind != File || r.Created != g.seqs.at(int(i)) || ci.flags&failed != 0 || g.files == nil {
		return false, "" // no file, or a trace that keeps none (format version 1)
	}
	if ci.obj == 0 {
		return false, "the trace keeps no file object of it"
	}
	f := g.files.File(ci.obj)
	switch {
	case f == nil:
		return false, "its file object is missing from the trace"
	case f.Mode&unix.S_IFMT != unix.S_IFREG:
		return false, "" // a directory or a device: never served, as before
	case !f.Stored():
		return false, NotStoredRemedy(f)
	}
	return true, ""
}

// NotStoredRemedy says why the trace lacks f's content and the record
// flag that would keep it.
func NotStoredRemedy(f *trace.FileObject) string {
	switch f.Why {
	case trace.ContentExcluded:
		return "content excluded from the trace (record it without an --exclude-content GLOB matching it)"
	case trace.ContentOverBudget:
		return "content over the recording's budget (record with a larger --max-content)"
	case trace.ContentUnreadable:
		return "content unreadable when recorded (record as a user who can read it)"
	case "":
		return "content not in the trace"
	}
	return "content not in the trace (" + f.Why + ")"
}

// imageNote says why a trace that keeps files cannot serve the image
// an exec ran (its file object obj), and the remedy.
func (g *Graph) imageNote(obj uint32) string {
	if obj == 0 {
		return "the trace keeps no file object of the image"
	}
	f := g.files.File(obj)
	switch {
	case f == nil:
		return "the image's file object is missing from the trace"
	case f.Mode&unix.S_IFMT != unix.S_IFREG:
		return "the image is not a regular file"
	}
	return NotStoredRemedy(f)
}
