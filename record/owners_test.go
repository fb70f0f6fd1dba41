package record

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
)

// dpkgOwner is the package dpkg-query says owns path (or its /usr-merge
// alias) and that package's version.
func dpkgOwner(t *testing.T, path string) (name, version string) {
	t.Helper()
	out, err := exec.Command("dpkg-query", "-S", path).Output()
	if err != nil {
		out, err = exec.Command("dpkg-query", "-S", strings.TrimPrefix(path, "/usr")).Output()
	}
	if err != nil {
		t.Fatalf("dpkg-query -S %s: %v", path, err)
	}
	name, _, _ = strings.Cut(strings.SplitN(string(out), ": ", 2)[0], ":")
	v, err := exec.Command("dpkg-query", "-W", "-f", "${Version}", name).Output()
	if err != nil {
		t.Fatalf("dpkg-query -W %s: %v", name, err)
	}
	return name, strings.TrimSpace(string(v))
}

// A recording of xz names the packages of the program and of its
// libraries as this machine's dpkg database says (dpkg-query), and of
// its input, a file of no package, that none owns it; and the parent directories of the input
// are stored once, with the first call that named a path under them,
// with the mode they have.
func TestOwnersAndParents(t *testing.T) {
	testutil.Require(t, testutil.Binary("xz"), testutil.Binary("dpkg-query"), testutil.File("/var/lib/dpkg/status"))
	xz, _ := exec.LookPath("xz")
	xz, _ = filepath.EvalSymlinks(xz)
	dir := filepath.Join(t.TempDir(), "deep", "er")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in.xz")
	if out, err := exec.Command("sh", "-c", "echo hello | xz > "+in).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	_, tr := recordIn(t, Options{}, xz, "-d", "-c", in)
	for _, path := range []string{xz, "liblzma.so.5"} {
		var f *trace.FileObject
		for i := range tr.Files {
			if o := &tr.Files[i]; o.Path == path || strings.HasSuffix(o.Path, "/"+path) {
				f = o
			}
		}
		if f == nil {
			t.Errorf("no file object of %s", path)
			continue
		}
		real := f.Resolved
		if real == "" {
			real = f.Path
		}
		name, version := dpkgOwner(t, real)
		if p := f.Package; p == nil || p.Manager != trace.PackageDpkg || p.Name != name || p.Version != version {
			t.Errorf("%s: package %+v; want dpkg's %s %s", f.Path, p, name, version)
		}
	}
	if f := objectOf(tr, in); f == nil || f.Package == nil || f.Package.Manager != trace.PackageDpkg || f.Package.Name != "" {
		t.Errorf("the input %s: object %+v; want one looked up and owned by no package", in, f)
	}
	found := 0
	for _, c := range calls(t, tr, "") {
		for _, d := range c.Dirs {
			if d.Path != dir {
				continue
			}
			found++
			if d.Mode != 0o40750 {
				t.Errorf("%s stored with mode %o; want 40750", dir, d.Mode)
			}
		}
	}
	if found != 1 {
		t.Errorf("%d calls carry the stat of %s; want 1 (each directory once)", found, dir)
	}
}

// Every file a recording keeps names its owner, not only programs and
// libraries (issue 27: a search groups the files that differ by
// package): a configuration file, and a compiled Python module, which
// dpkg does not list, by the package of its source.
func TestOwnersOfEveryFile(t *testing.T) {
	const conf, pyc = "/etc/debian_version", "/usr/lib/python3.11/json/__pycache__/__init__.cpython-311.pyc"
	testutil.Require(t, testutil.Binary("dpkg-query"), testutil.File("/var/lib/dpkg/status"), testutil.File(conf), testutil.File(pyc))
	_, tr := recordIn(t, Options{}, "/bin/cat", conf, pyc)
	for path, owned := range map[string]string{conf: conf, pyc: "/usr/lib/python3.11/json/__init__.py"} {
		f := objectOf(tr, path)
		if f == nil {
			t.Errorf("no file object of %s", path)
			continue
		}
		name, version := dpkgOwner(t, owned)
		if p := f.Package; p == nil || p.Manager != trace.PackageDpkg || p.Name != name || p.Version != version {
			t.Errorf("%s: package %+v; want dpkg's %s %s", path, p, name, version)
		}
	}
}
