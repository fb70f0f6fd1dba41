package envdiff

import (
	"slices"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/tracefile"
)

// DefaultMaxHash is Options.MaxHash's default: the bytes of content
// Inspect reads here to compare files with the good run's hashes. The
// files are those the recorded command read, of the size they had, so a
// recording's --max-content (512 MiB by default) is about what it costs;
// this bounds a trace of a larger program.
const DefaultMaxHash = 2 << 30

// Options tune Inspect.
type Options struct {
	// MaxHash bounds the bytes read here to hash files; 0:
	// DefaultMaxHash, negative: hash none (content is then compared by
	// size alone). A file past the bound is listed in Skipped.
	MaxHash int64
	// Ignore are paths here (as the command names them) that are
	// envbisect's own, with what is under them: the trace being read,
	// a logs directory, what --persist shares with every run. They are
	// never objects, nor entries of a directory, whatever the good run
	// saw.
	Ignore []string
	// KernelHere are the kernel's names a run here sees ("release",
	// "version": uname(2) as envbisect, whose persona the runs inherit,
	// gets it); nil: the kernel's names are not compared (Diff.Kernel).
	KernelHere map[string]string
}

// Diff is the static environment diff: the objects the recording
// observed whose state here differs from their state in the good run.
type Diff struct {
	// Objects are the objects that differ, sorted by path.
	Objects []envobj.Object `json:"objects"`
	// MtimeOnly are the paths of the Objects that differ by their
	// modification time alone: rarely a cause (a build that compares
	// times is), for a search to try last.
	MtimeOnly []string `json:"mtime_only,omitempty"`
	// Own are the paths that are the command's own work, not
	// environment: it created, wrote, truncated, renamed, removed or
	// changed them during the recorded run, and the recording saw
	// nothing of them before, or they lie under a directory it made.
	// Sorted.
	Own []string `json:"own,omitempty"`
	// Written are the directories in which the command changed a path
	// it named (created, wrote, truncated, renamed, removed, chmod'ed
	// ...) during the recorded run, outside /proc, /sys and /dev: where
	// a run of it is expected to write (sandbox.Spec.Writable). Sorted.
	Written []string `json:"written,omitempty"`
	// Skipped are the paths inspection could not compare, and why,
	// sorted by path.
	Skipped []Skip `json:"skipped,omitempty"`
	// Compared counts the paths whose two states were compared; Hashed
	// the bytes read here to compare content.
	Compared int   `json:"compared"`
	Hashed   int64 `json:"hashed"`
	// Kernel are the kernel's names (release, version) whose answer to
	// the recorded command's uname differs from Options.KernelHere:
	// start items of envobj.KindKernel, which a run puts in place by
	// rewriting uname's answer (kernel.go).
	Kernel []envobj.StartValue `json:"kernel,omitempty"`
}

// Skip is a path inspection could not compare (in part, when it is also
// an Object).
type Skip struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// Object returns the object of path p, or nil.
func (d *Diff) Object(p string) *envobj.Object {
	i, ok := slices.BinarySearchFunc(d.Objects, p, func(o envobj.Object, p string) int {
		switch {
		case o.Path < p:
			return -1
		case o.Path > p:
			return 1
		}
		return 0
	})
	if !ok {
		return nil
	}
	return &d.Objects[i]
}

// Inspect compares every object the recording tr observed with its state
// here, under root: "/" for a command run on this machine, a process's
// "/proc/PID/root" for one in a container (paths resolve inside it, links
// included). table is the syscall table of the trace's architecture.
// It runs nothing and changes nothing; see the package documentation for
// what it compares and what it cannot see. It is an Inspector given
// tr's events, for a trace held whole.
func Inspect(tr *tracefile.Trace, table *systable.Table, root string, opts Options) (*Diff, error) {
	in := &Inspector{w: newWalker(table, tr.Header.Arch, tr.File), tunables: newTunableReads(table), binds: newBinds(table), kernel: newKernelAnswer(table)}
	for i := range tr.Events {
		in.Add(&tr.Events[i])
	}
	return in.Compare(tr.Files, root, opts)
}
