package ptrace

import (
	"os"

	"github.com/envbisect/envbisect/trace"
)

// FileSink takes the files of the good environment that a recording
// keeps (Config.Files). Keep is called on the tracer thread, once per
// distinct file (device, inode, size, mtime) per recording, with the file
// opened read-only from the tracer and its object: ID, Path, Resolved and
// the identity from fstat filled in, content not yet read. f is nil when
// the tracer could not open it. Keep must return at once; it owns f and
// closes it. The ID is already in the Obj of the call that opened or ran
// the file, and is handed to no other object.
type FileSink interface {
	Keep(f *os.File, obj *trace.FileObject)
}

// fileKey is what makes two opens the same file within one recording.
type fileKey struct {
	dev, ino    uint64
	size, mtime int64
}

// StatedFilter is implemented by a FileSink that also keeps some of the
// regular files the command only stat'ed, never opened: KeepsStated says
// whether the file at path (as the program named it; resolved is where
// it led, every link followed, or "" when that is path) is one. It is
// called on the tracer thread, once per distinct file, and must be quick.
//
// A recording keeps those a package owns (record's contentStore): an
// interpreter stats a module's source and loads its compiled cache
// (Python reads __pycache__/NAME.TAG.pyc when it matches the .py's size
// and mtime, which it stats), so putting a package back takes both.
type StatedFilter interface {
	KeepsStated(path, resolved string) bool
}
