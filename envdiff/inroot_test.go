package envdiff_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// Inspect of a container's root (a directory standing for /proc/PID/root)
// reads the paths inside it: its copy of a file, not this machine's; an
// absolute symbolic link in it leads inside it, so that a link whose
// target the root lacks is missing there even though this machine has
// that path.
func TestInspectInRoot(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "w")
	writeTree(t, dir, map[string]string{"conf/app.conf": "host\n", "conf/host-only.conf": "only\n"})
	must(t, os.Symlink(filepath.Join(dir, "conf/app.conf"), filepath.Join(dir, "abs")))
	must(t, os.Symlink(filepath.Join(dir, "conf/host-only.conf"), filepath.Join(dir, "abs2")))
	tr := recordIn(t, dir, "cat abs abs2 >/dev/null")

	// The container's root holds the same tree, with another app.conf
	// of the same size, the same absolute links, and no host-only.conf.
	root := t.TempDir()
	in := filepath.Join(root, dir)
	writeTree(t, in, map[string]string{"conf/app.conf": "cont\n"})
	must(t, os.Symlink(filepath.Join(dir, "conf/app.conf"), filepath.Join(in, "abs")))
	must(t, os.Symlink(filepath.Join(dir, "conf/host-only.conf"), filepath.Join(in, "abs2")))
	for _, p := range []string{"conf/app.conf", "conf", "."} { // mtimes as on the host
		fi, err := os.Stat(filepath.Join(dir, p))
		must(t, err)
		must(t, os.Chtimes(filepath.Join(in, p), time.Time{}, fi.ModTime()))
	}

	d := inspect(t, tr, root)
	got := map[string]string{}
	for _, o := range d.Objects {
		if rel, err := filepath.Rel(dir, o.Path); err == nil && filepath.IsLocal(rel) {
			got[rel] = o.Differs.String()
		}
	}
	want := map[string]string{"conf/app.conf": "content", "conf/host-only.conf": "exists", "abs2": "target"}
	if len(got) != len(want) || got["conf/app.conf"] != "content" || got["conf/host-only.conf"] != "exists" || got["abs2"] != "target" {
		t.Errorf("objects under %s: %v; want %v", dir, got, want)
	}
	if o := object(t, d, filepath.Join(dir, "abs2")); o.Good.Target != filepath.Join(dir, "conf/host-only.conf") || o.Here.Known.Has("target") {
		t.Errorf("abs2: good target %q, here %+v; want where it led, and nowhere here", o.Good.Target, o.Here)
	}
	for _, s := range d.Skipped {
		if rel, err := filepath.Rel(dir, s.Path); err == nil && filepath.IsLocal(rel) {
			t.Errorf("skipped %s: %s", s.Path, s.Why)
		}
	}
	// This machine's files of the trace (the shell, its libraries) are
	// not in the root: missing there.
	if o := d.Object("/etc/ld.so.cache"); o == nil || o.Here.Exists || !slices.Contains(o.Differs, "exists") {
		t.Errorf("/etc/ld.so.cache: %+v; want missing in the root", o)
	}
}
