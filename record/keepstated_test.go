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
