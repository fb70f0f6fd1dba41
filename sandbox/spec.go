package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Spec says how to build a run's sandbox. The zero Spec isolates every
// writable mount.
type Spec struct {
	// Persist are absolute paths whose real contents the run shares: each
	// is bind-mounted from the real tree over the sandbox, so what the run
	// writes there stays.
	Persist []string `json:"persist,omitempty"`
	// Cwd, when set, is where the command starts: after the pivot, the
	// working directory Enter was called in (its view in the sandbox, with
	// what is mounted under it) is bind-mounted at this absolute path, on
	// a mount point made in the sandbox's throwaway tree, and the thread
	// moves there. A replayed working directory (package replay): the
	// program sees the recorded path, and this environment's files in it.
	Cwd string `json:"cwd,omitempty"`
}

// Validate checks that every Persist path, and Cwd, is absolute and
// clean.
func (s Spec) Validate() error {
	if s.Cwd != "" && (!filepath.IsAbs(s.Cwd) || filepath.Clean(s.Cwd) != s.Cwd) {
		return fmt.Errorf("sandbox: working directory %q is not an absolute, clean path", s.Cwd)
	}
	for _, p := range s.Persist {
		if !filepath.IsAbs(p) || filepath.Clean(p) != p {
			return fmt.Errorf("sandbox: persist path %q is not an absolute, clean path", p)
		}
	}
	return nil
}

// Report says what a sandbox isolates.
type Report struct {
	// Overlaid are the mount points that got an overlay (or, for a file,
	// a copy): writes there go to the run's scratch.
	Overlaid []string
	// Shared are the mount points bound as they are: read-only mounts and
	// pseudo file systems, where nothing is written or which must stay
	// live (/proc, /sys, /dev).
	Shared []string
	// NotIsolated are writable mounts the sandbox could not overlay, with
	// why: writes there reach the real file system.
	NotIsolated []string
	// Persisted are the Spec.Persist paths, shared on purpose.
	Persisted []string
}

// Summary is one line for the user: what is isolated, and what is not.
func (r *Report) Summary() string {
	s := fmt.Sprintf("each run sees a throwaway copy of %d writable mount(s)", len(r.Overlaid))
	if len(r.Persisted) > 0 {
		s += "; shared on purpose (--persist): " + strings.Join(r.Persisted, ", ")
	}
	if len(r.NotIsolated) > 0 {
		s += "; NOT isolated: " + strings.Join(r.NotIsolated, "; ")
	}
	return s
}
