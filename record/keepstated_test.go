package record

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// A file the command only stat'ed is kept, with its content and owner,
// when a package owns it (KeepsStated), and no call names it: here
// coreutils' stat, which opens none of them, on /etc/debian_version
// (base-files), on /etc/os-release, a link, without -L (the link itself:
// not a regular file) and with -L (the file it leads to, base-files'
// /usr/lib/os-release), and on a file no package owns, which is not
// kept.
func TestKeepStatedPackageFiles(t *testing.T) {
	const owned, link = "/etc/debian_version", "/etc/os-release"
	testutil.Require(t, testutil.Binary("stat"), testutil.Binary("dpkg-query"), testutil.File("/var/lib/dpkg/status"),
		testutil.File(owned), testutil.File(link))
	if l, err := os.Readlink(link); err != nil || filepath.Base(l) != "os-release" {
		t.Skipf("%s is not a link to os-release here (%q, %v)", link, l, err)
	}
	mine := filepath.Join(t.TempDir(), "mine.txt")
	if err := os.WriteFile(mine, []byte("no package\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, tr := recordIn(t, Options{}, "stat", owned, link, mine)
	f := objectOf(tr, owned)
	if f == nil {
		t.Fatalf("no file object of %s, which stat stat'ed and base-files owns", owned)
	}
	want, err := os.ReadFile(owned)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Stored() || string(content(t, tr, f)) != string(want) {
		t.Errorf("%s: stored %v (%s); want its content", owned, f.Stored(), f.Why)
	}
	name, version := dpkgOwner(t, owned)
	if p := f.Package; p == nil || p.Name != name || p.Version != version {
		t.Errorf("%s: package %+v; want %s %s", owned, p, name, version)
	}
	for _, c := range calls(t, tr, "") {
		if c.Obj == f.ID {
			t.Errorf("call #%d names the stat'ed file (Obj %d): only a call that opened or ran a file does", c.Seq, c.Obj)
		}
	}
	if f := objectOf(tr, link); f != nil {
		t.Errorf("a file object of %s (%+v): stat without -L saw the link, not a regular file", link, f)
	}
	if f := objectOf(tr, mine); f != nil {
		t.Errorf("a file object of %s, which no package owns and stat only stat'ed", mine)
	}

	_, tr = recordIn(t, Options{}, "stat", "-L", link)
	if f := objectOf(tr, link); f == nil || f.Resolved == "" || !f.Stored() || f.Package == nil || f.Package.Name == "" {
		t.Errorf("stat -L %s: object %+v; want the file it leads to, stored, with its package", link, f)
	}
}

// The tracer resolves a stat'ed file's directory once and keeps it until a
// call may have changed where a directory path leads: here one python3
// process lstats NAME/debian_version through a link to a directory of
// its own (no package owns it: not kept), replaces the link by one to
// /etc, and lstats the same path again, which now leads to base-files'
// /etc/debian_version (kept, resolved there).
func TestKeepStatedDirectoryChanged(t *testing.T) {
	const owned = "/etc/debian_version"
	testutil.Require(t, testutil.Binary("python3"), testutil.Binary("dpkg-query"), testutil.File("/var/lib/dpkg/status"),
		testutil.File(owned))
	dir := t.TempDir()
	mine := filepath.Join(dir, "mine")
	if err := os.Mkdir(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mine, "debian_version"), []byte("not Debian's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := filepath.Join(dir, "d")
	if err := os.Symlink(mine, d); err != nil {
		t.Fatal(err)
	}
	named := filepath.Join(d, "debian_version")
	script := "import os, sys\nd, named = sys.argv[1], sys.argv[2]\nos.lstat(named)\nos.remove(d)\nos.symlink('/etc', d)\nos.lstat(named)\n"
	_, tr := recordIn(t, Options{}, "python3", "-c", script, d, named)
	if f := objectOf(tr, filepath.Join(mine, "debian_version")); f != nil {
		t.Errorf("a file object of %s (%+v), which no package owns and python3 only stat'ed", f.Resolved, f)
	}
	f := objectOf(tr, owned)
	if f == nil {
		t.Fatalf("no file object of %s, which %s led to after the link changed", owned, named)
	}
	if f.Path != named || f.Resolved != owned || !f.Stored() {
		t.Errorf("object %+v; want path %s resolved %s, stored", f, named, owned)
	}
	name, _ := dpkgOwner(t, owned)
	if f.Package == nil || f.Package.Name != name {
		t.Errorf("%s: package %+v; want %s", owned, f.Package, name)
	}
}
