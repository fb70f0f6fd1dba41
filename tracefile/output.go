package tracefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// The trace file is never written in place. Create makes a new file beside
// the output (O_CREAT|O_EXCL, so nothing that already exists is opened,
// a planted symbolic link included) and Close renames it over the output
// once the trace is whole, or cut short but readable. Until then an
// existing output is untouched; a recorder killed by SIGKILL leaves its
// trace, readable to its last frame, at the partial name.
//
// What may be replaced: nothing, an empty file, an envbisect trace (its
// preamble says so), or any regular file with Options.Replace (record
// --force). A symbolic link
// at the output is refused (its target would be replaced by the link
// being renamed over, or followed by a careless writer): the user names
// the real path. A device or a pipe (-o /dev/stdout, a FIFO) is written
// to directly, since it cannot be renamed over and holds no file to lose.

// ErrOutputExists is the error of an output path that holds something
// Create will not replace.
var ErrOutputExists = errors.New("output exists")

// output is where Create writes: the file, and the path to rename it to
// when the trace is done ("" when written in place).
type output struct {
	f       *os.File
	partial string // the file's own path, renamed to final
	final   string
}

// openOutput opens the trace's destination at path as described above.
func openOutput(path string, replace bool) (output, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return output{}, err
	case fi.Mode()&fs.ModeSymlink != 0:
		if t, err := os.Stat(path); err == nil && (t.Mode()&fs.ModeCharDevice != 0 || t.Mode()&fs.ModeNamedPipe != 0) {
			return openInPlace(path) // /dev/stdout -> /proc/self/fd/1
		}
		return output{}, fmt.Errorf("%s is a symbolic link: envbisect does not write through links "+
			"(a link planted in a shared directory would make it overwrite the file it points to); give the real path", path)
	case fi.Mode()&fs.ModeCharDevice != 0 || fi.Mode()&fs.ModeNamedPipe != 0:
		return openInPlace(path)
	case fi.IsDir():
		return output{}, fmt.Errorf("%s is a directory: give a file name, such as %s", path, filepath.Join(path, "trace.envb"))
	case !fi.Mode().IsRegular():
		return output{}, fmt.Errorf("%s is not a regular file (%s): give another path", path, fi.Mode().Type())
	case !replace && fi.Size() > 0:
		if ok, err := isTrace(path); err != nil || !ok {
			return output{}, fmt.Errorf("%w: %s is not an envbisect trace, and envbisect replaces only its own traces: "+
				"give another path, or --force to replace it", ErrOutputExists, path)
		}
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*"+partialSuffix)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			// Name the output the user gave, not the partial file.
			err = &fs.PathError{Op: "create", Path: path, Err: pe.Err}
		}
		return output{}, err
	}
	return output{f: f, partial: f.Name(), final: path}, nil
}

func openInPlace(path string) (output, error) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return output{}, err
	}
	return output{f: f}, nil
}

// isTrace reports whether the regular file at path starts with a trace's
// magic.
func isTrace(path string) (bool, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return false, err
	}
	defer f.Close()
	b := make([]byte, len(Magic))
	if _, err := io.ReadFull(f, b); err != nil {
		return false, nil // empty or shorter than the magic
	}
	return string(b) == Magic, nil
}

// commit puts the written trace in place: nothing to do when written in
// place, else the partial file is renamed over the output.
func (o output) commit() error {
	if o.partial == "" {
		return nil
	}
	if err := os.Rename(o.partial, o.final); err != nil {
		return fmt.Errorf("put the trace in place: %w (it is kept at %s)", err, o.partial)
	}
	return nil
}

// discard removes a partial file that never became a trace (the header
// could not be written).
func (o output) discard() {
	if o.partial != "" {
		os.Remove(o.partial)
	}
}

// frameSource returns the file to read frames the Writer wrote back
// from: the partial file Create made (read-write), or nil for a trace
// written in place (a device, a pipe: write-only) or to an io.Writer.
// dest does not change after Create returns.
func (w *Writer) frameSource() io.ReaderAt {
	if w.f == nil || w.dest.partial == "" {
		return nil
	}
	return w.f
}

// partialSuffix ends the name of a trace being written.
const partialSuffix = ".partial"

// IsPartialName reports whether name (a file name without its
// directory) is one a recording gives the trace it is writing,
// ".FILE.RANDOM.partial" beside FILE: the command may see it in a
// listing of that directory while it runs (docs/security.md), and a
// comparison of environments leaves it out.
func IsPartialName(name string) bool {
	rest, ok := strings.CutSuffix(name, partialSuffix)
	if !ok || !strings.HasPrefix(rest, ".") {
		return false
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 1 || i == len(rest)-1 {
		return false
	}
	for _, r := range rest[i+1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
