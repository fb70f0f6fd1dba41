package sandbox

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestBindSocketsSkipsARemovedSocket: a listening socket whose file was
// removed between the listing and the bind (a container's shim socket,
// gone as its container stops) is not an error: it is gone from the real
// tree too. Another failure still is.
func TestBindSocketsSkipsARemovedSocket(t *testing.T) {
	dir := t.TempDir()
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	b := &builder{root: filepath.Join(dir, "root")}
	if err := os.Mkdir(b.root, 0o755); err != nil {
		t.Fatal(err)
	}
	gone := []socketFile{{path: "/run/gone.sock", fd: fd, mntID: 7}}
	if err := b.bindSockets(gone, map[int]bool{7: true}); err != nil {
		t.Errorf("a socket removed since the listing: %v, want it skipped", err)
	}
	// A target under a regular file cannot exist (ENOTDIR): that error is
	// reported.
	if err := os.WriteFile(filepath.Join(b.root, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := []socketFile{{path: "/file/sock", fd: fd, mntID: 7}}
	if err := b.bindSockets(bad, map[int]bool{7: true}); err == nil {
		t.Error("a bind onto a path under a regular file succeeded, want an error")
	}
}

// TestReplicateSkipsARemovedMountPoint: a mount whose mount point was
// removed after the mount table was read (a container's overlay, as the
// container stops) is left out, not a failed run.
func TestReplicateSkipsARemovedMountPoint(t *testing.T) {
	dir := t.TempDir()
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	b := &builder{root: filepath.Join(dir, "root"), overlaid: map[int]bool{}}
	if err := os.Mkdir(b.root, 0o755); err != nil {
		t.Fatal(err)
	}
	r := reachable{Mount: Mount{ID: 9, Point: "/var/lib/docker/overlay2/x/merged", FSType: "proc"}, fd: fd, isDir: true}
	if err := b.replicate(0, r); err != nil {
		t.Errorf("a mount whose mount point is gone: %v, want it left out", err)
	}
	if len(b.rep.Shared)+len(b.rep.Overlaid)+len(b.rep.NotIsolated) != 0 {
		t.Errorf("report %+v, want nothing for a mount that is gone", b.rep)
	}
}
