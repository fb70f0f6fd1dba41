package pkgdb

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStamp: the stamp of a root changes when dpkg's status file is
// replaced, and stays when nothing changed.
func TestStamp(t *testing.T) {
	root := t.TempDir()
	status := filepath.Join(root, "var/lib/dpkg/status")
	if err := os.MkdirAll(filepath.Join(root, "var/lib/dpkg/info"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(status, []byte(dpkgStatusText), 0o644); err != nil {
		t.Fatal(err)
	}
	a, b := Stamp(root), Stamp(root)
	if a != b {
		t.Fatalf("two stamps of an unchanged database differ: %q, %q", a, b)
	}
	if err := os.WriteFile(status+".new", []byte(dpkgStatusText+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(status+".new", status); err != nil {
		t.Fatal(err)
	}
	if c := Stamp(root); c == a {
		t.Errorf("the stamp did not change with the status file: %q", c)
	}
	if Stamp(t.TempDir()) == a {
		t.Error("a root without a database has the stamp of one with")
	}

	// A .list file rewritten in place (as a bind mount over it would
	// show a new file): the info directory does not change, the stamp
	// must.
	list := filepath.Join(root, "var/lib/dpkg/info/zlib1g.list")
	if err := os.WriteFile(list, []byte("/usr/lib/libz.so.1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b = Stamp(root)
	f, err := os.OpenFile(list, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("/usr/lib/other.so\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if Stamp(root) == b {
		t.Error("the stamp did not change with a .list file rewritten in place")
	}
}

func TestUnowned(t *testing.T) {
	for path, want := range map[string]bool{
		"/tmp/cc8Xk2.s": true, "/var/tmp/x": true, "/home/u/src/a.c": true, "/run/lock/x": true,
		"/usr/bin/gcc": false, "/tmpfoo": false, "/etc/hosts": false, "/homes/x": false,
	} {
		if got := Unowned(path); got != want {
			t.Errorf("Unowned(%q) = %v, want %v", path, got, want)
		}
	}
}
