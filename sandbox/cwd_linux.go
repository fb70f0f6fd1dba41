package sandbox

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// bindCwd runs in the new tree, after the pivot: it makes mount point at
// (with its missing parents) in the sandbox's view, binds the working
// directory from there, and moves into it. Made after the pivot, the
// mount point's path (and any symbolic link in it) resolves in the
// sandbox: the directories it makes go to the overlays' throwaway upper
// layers, and a parent on a read-only mount fails with EROFS instead of
// reaching the real file system.
//
// When at holds from (the recording started in a directory above this
// one: recorded /tmp, here /tmp/build), a bind would hide from, and with
// it every file the command names by its absolute path under it; the
// thread only moves to at, as it is in the sandbox's view. So too when
// from holds at and at is a directory here (recorded below this one:
// recorded /tmp/m2, here /tmp): a bind of from at its own subdirectory
// would replace at's files with from's, and every file the command names
// under at would be missing. A recorded directory below this one that
// is not here is made and bound as any other: it hides nothing.
func bindCwd(from, at string) error {
	fi, err := os.Stat(at)
	if holds(at, from) || holds(from, at) && err == nil && fi.IsDir() {
		if err := unix.Chdir(at); err != nil {
			return fmt.Errorf("working directory %s: %w", at, err)
		}
		return nil
	}
	switch {
	case err == nil && !fi.IsDir():
		return fmt.Errorf("working directory %s: it is a %s here, not a directory", at, fi.Mode().Type())
	case err != nil:
		if err := os.MkdirAll(at, 0o755); err != nil {
			return fmt.Errorf("working directory %s: make its mount point in the sandbox: %w", at, err)
		}
	}
	if err := unix.Mount(from, at, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("working directory: bind %s at %s: %w", from, at, err)
	}
	if err := unix.Chdir(at); err != nil {
		return fmt.Errorf("working directory %s: %w", at, err)
	}
	return nil
}

// holds says whether dir is path or one of its ancestors (both absolute
// and clean).
func holds(dir, path string) bool {
	return dir == "/" || path == dir || strings.HasPrefix(path, dir+"/")
}
