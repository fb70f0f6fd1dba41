package launch

import (
	"fmt"
	"os"
	"path/filepath"
)

// Where envbisect writes because of a run, and when.
//
// The rule: nothing envbisect writes is where the command can see it
// while it runs. What it writes lives outside every path the command
// opens, or is hidden by the run's mount namespace, or is written after
// the command has exited (and after its check has run). A recording that
// the tool itself changed is not the user's good run: a build whose HOME
// is inside the tree it archives saw the content cache appear in its
// archive, and tar failed with "file changed as we read it".
//
// The places, each chosen here or by the user:
//
//   - record's content cache, ContentCacheDir (or --content-cache): read
//     while the command runs, never created or changed then; the
//     recording's misses, hits and refused entries are applied after the
//     command has exited (record's cacheUpdate). A cache that an earlier
//     recording left in a tree the command reads is in its view all the
//     same: record warns when the command reaches it.
//   - the scratch of a semi-replay run (creations that cannot happen
//     here, made elsewhere), ScratchBases: a directory made on first
//     need in the command's own view. In a sandbox it is on the run's
//     private tmpfs and goes with the run, nothing on the host; outside
//     one it is in the host's /tmp and removed when the run ends. Either
//     way a command that lists /tmp (/var/tmp, /run) while it runs sees
//     envbisect-scratch-PID-RANDOM: the creations are made by the
//     command's own calls, rewritten to paths it must be able to resolve.
//     A remaining limit (docs/security.md).
//   - the sandbox's scratch tmpfs (package sandbox): mounted over /tmp in
//     the old tree, which is detached after pivot_root: out of reach.
//   - the good environment's files a run serves, and stand-ins: sealed
//     memfds (package serve, ptrace), which no path names.
//   - the contents a materialized run's objects write (Config.Bundle): a
//     sealed memfd the helper reads while it puts the objects in place
//     and closes before the exec (the command never holds it); the
//     objects themselves are written in the run's sandbox only, the
//     good content bound over a kernel file from its scratch tmpfs.
//   - a materialized run's view, kept for a check after the command's
//     exit: a mount namespace the helper sends over a socket, no path.
//   - a replayed bind whose address is taken here: an abstract unix name
//     or a port the kernel picks, no file.
//   - the trace record writes (-o FILE): .FILE.RANDOM.partial beside
//     FILE from before the command starts, renamed at the end, so that a
//     recorder killed with SIGKILL leaves a readable trace. The user
//     chose FILE: a command that lists that directory sees the partial
//     file (docs/security.md says where to put it).
//   - locate --logs DIR: one file per run, opened before the run starts;
//     the user's choice likewise. --report FILE is written after the
//     last run.
//
// A new place envbisect writes during a run is added here, with how it
// keeps the rule.

// ContentCacheDir returns the default directory of record's content
// cache for the user envbisect runs as: $XDG_CACHE_HOME/envbisect/content,
// or ~/.cache/envbisect/content. It creates nothing.
func ContentCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("content cache: %w", err)
	}
	return filepath.Join(dir, "envbisect", "content"), nil
}

// ScratchBases are the directories, as the command sees the file system,
// that may hold a semi-replay run's scratch directory (the first where
// it can be made). In a sandbox every writable one is an overlay whose
// writes go to the run's scratch tmpfs, so the directory goes away with
// the run.
func ScratchBases() []string { return []string{"/tmp", "/var/tmp", "/run"} }
