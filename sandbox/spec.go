package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/envbisect/envbisect/envobj"
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
	// When Cwd holds that working directory (recorded in /tmp, run from
	// /tmp/build) nothing is bound, which would hide the directory the
	// runs start in; so too when that directory holds Cwd and Cwd is a
	// directory here (recorded in /tmp/build, run from /tmp), where a
	// bind would hide Cwd's own files: the command starts at Cwd as it
	// is in the view.
	Cwd string `json:"cwd,omitempty"`
	// Objects are the good environment's objects to put in place, in
	// order, once the view is built and before the command starts (a
	// materialized run, objects_linux.go): each changes the run's
	// throwaway view only. A path on a read-only mount, or on a mount
	// otherwise bound as it is, gets an overlay of its own for them (made
	// read-only again afterwards); where that cannot be, Enter fails
	// naming the path. Paths are absolute, as the command sees them (in
	// a container: inside it).
	Objects []envobj.Op `json:"objects,omitempty"`
	// Hostname, when set, is the host name the command sees: the run gets
	// a UTS namespace of its own (a copy of the one it would have, a
	// container's included) with this name, so uname(2), hostname(1) and
	// gethostname(3) answer it. The good run's name, put in place.
	Hostname string `json:"hostname,omitempty"`
	// OwnNetwork gives the run a network namespace of its own, with only
	// its loopback interface, up: every address is free in it, so an
	// address the command binds that a process holds here is put in place
	// (envobj.KindAddress). The command then reaches nothing outside the
	// run over the network, this machine's services on 127.0.0.1
	// included, nor abstract unix sockets; sockets with a path stay
	// reachable.
	OwnNetwork bool `json:"own_network,omitempty"`
	// Narrow narrows the isolation to where the run writes (a
	// materialized run of the object search, whose recording says where
	// the command writes): every writable mount the view would overlay
	// is bound read-only instead, so reads cost what they cost natively
	// and a write anywhere else fails with EROFS; the directories of
	// Writable, and those where an object adds, removes or replaces an
	// entry, get a throwaway overlay of their own (the nearest one that
	// exists here, when a path is missing); a file object over a file
	// that is there is a file of the run's scratch bound over it. Nothing
	// reaches the real file system either way. When a view cannot be
	// narrowed (an object on the root of a mount, more than 64
	// directories) it is isolated in full, and Report.ReadOnly is empty.
	Narrow bool `json:"narrow,omitempty"`
	// Writable are the absolute paths of the directories a narrowed run
	// writes in (Narrow); a mount of a single file in one of them is a
	// copy, as in the full view.
	Writable []string `json:"writable,omitempty"`
	// NetNS, when set, is the nsfs file of a network namespace the run
	// joins instead of making one ("/proc/PID/fd/N"): the stand-in
	// network of package standin, made by the caller for the run, where
	// stand-ins answer for the command's recorded peers. It implies what
	// OwnNetwork gives (every address free, loopback up).
	NetNS string `json:"netns,omitempty"`
}

// Validate checks that every Persist path, and Cwd, is absolute and
// clean.
func (s Spec) Validate() error {
	if s.Cwd != "" && (!filepath.IsAbs(s.Cwd) || filepath.Clean(s.Cwd) != s.Cwd) {
		return fmt.Errorf("sandbox: working directory %q is not an absolute, clean path", s.Cwd)
	}
	if len(s.Hostname) > 64 || strings.ContainsRune(s.Hostname, 0) {
		return fmt.Errorf("sandbox: host name %q is not one the kernel takes (64 bytes at most, no NUL)", s.Hostname)
	}
	if s.NetNS != "" && !filepath.IsAbs(s.NetNS) {
		return fmt.Errorf("sandbox: network namespace %q is not an absolute path", s.NetNS)
	}
	for _, p := range s.Persist {
		if !filepath.IsAbs(p) || filepath.Clean(p) != p {
			return fmt.Errorf("sandbox: persist path %q is not an absolute, clean path", p)
		}
	}
	for _, p := range s.Writable {
		if !filepath.IsAbs(p) || filepath.Clean(p) != p {
			return fmt.Errorf("sandbox: writable path %q is not an absolute, clean path", p)
		}
	}
	for _, op := range s.Objects {
		if err := op.Validate(); err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
		for _, p := range s.Persist {
			if within(op.Path, p) {
				return fmt.Errorf("sandbox: object %s: %s is shared on purpose (--persist %s), and an object is put in place only in the run's throwaway view", op, op.Path, p)
			}
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
	// ReadOnly are the writable mounts a narrowed view (Spec.Narrow)
	// bound read-only: the run was not to write there.
	ReadOnly []string
	// ForObjects are the read-only mounts and mounts of the kernel's
	// trees (/dev, ...) that got an overlay only because Spec.Objects
	// puts an object there; a read-only one is read-only again for the
	// command.
	ForObjects []string
}

// Summary is one line for the user: what is isolated, and what is not.
func (r *Report) Summary() string {
	s := fmt.Sprintf("each run sees a throwaway copy of %d writable mount(s)", len(r.Overlaid))
	if len(r.ReadOnly) > 0 {
		s = fmt.Sprintf("isolation narrowed to where the run writes: %d writable mount(s) bound read-only, a throwaway copy of %s", len(r.ReadOnly), strings.Join(r.Overlaid, ", "))
	}
	if len(r.Persisted) > 0 {
		s += "; shared on purpose (--persist): " + strings.Join(r.Persisted, ", ")
	}
	if len(r.NotIsolated) > 0 {
		s += "; NOT isolated: " + strings.Join(r.NotIsolated, "; ")
	}
	return s
}

// within reports whether path p is dir or below it.
func within(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}
