package envobj

import (
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// A package that is not installed here: its directories, missing with
// its files and owned by no package the trace knows, go in its group,
// and the group says how many files and directories it puts back.
func TestBuildPackageDirectories(t *testing.T) {
	idna := &trace.Package{Manager: trace.PackageDpkg, Name: "python3-idna", Version: "3.3-1"}
	six := &trace.Package{Manager: trace.PackageDpkg, Name: "python3-six", Version: "1.16.0-4"}
	dir := func(p string) Object {
		return Object{Path: p, Good: State{Exists: true, Type: TypeDir, Mode: 0o755, Known: stat}, Differs: Aspects{AspectExists}}
	}
	file := func(p string, pk *trace.Package) Object {
		return Object{Path: p, Stored: true, Package: pk, Good: State{Exists: true, Type: TypeFile, Mode: 0o644, Known: stat}, Differs: Aspects{AspectExists}}
	}
	const dp = "/usr/lib/python3/dist-packages"
	objs := []Object{
		0: dir(dp + "/idna"),
		1: file(dp+"/idna/__init__.py", idna),
		2: dir(dp + "/idna/__pycache__"),
		3: file(dp+"/idna/__pycache__/__init__.cpython-311.pyc", idna),
		4: file(dp+"/idna/core.py", idna),
		// A directory with a file no package owns stays a directory.
		5: dir("/opt/app"),
		6: file("/opt/app/a.py", idna),
		7: file("/opt/app/local.py", nil),
		// Two packages' files: neither takes it.
		8:  dir("/srv/mixed"),
		9:  file("/srv/mixed/x.py", idna),
		10: file("/srv/mixed/six.py", six),
	}
	h := Build(objs)
	var b strings.Builder
	outline(h.Top, 0, &b)
	want := `package python3-idna 3.3-1 (dpkg) [6 9 0 1 2 3 4]
  /opt/app/a.py [6]
  /srv/mixed/x.py [9]
  directory /usr/lib/python3/dist-packages/idna [0 1 2 3 4]
    /usr/lib/python3/dist-packages/idna [0]
    /usr/lib/python3/dist-packages/idna/__init__.py [1]
    directory /usr/lib/python3/dist-packages/idna/__pycache__ [2 3]
      /usr/lib/python3/dist-packages/idna/__pycache__ [2]
      /usr/lib/python3/dist-packages/idna/__pycache__/__init__.cpython-311.pyc [3]
    /usr/lib/python3/dist-packages/idna/core.py [4]
package python3-six 1.16.0-4 (dpkg) [10]
  /srv/mixed/six.py [10]
directory /opt/app [5 7]
  /opt/app [5]
  /opt/app/local.py [7]
/srv/mixed [8]
`
	if b.String() != want {
		t.Errorf("hierarchy:\n%s\nwant:\n%s", b.String(), want)
	}

	only := objs[:5]
	h = Build(only)
	if len(h.Top) != 1 || h.Top[0].Kind != GroupPackage {
		t.Fatalf("top %d groups; want the package alone", len(h.Top))
	}
	g := h.Top[0]
	if got, want := g.Says(only), "python3-idna 3.3-1 is not installed here (3 files and 2 directories)"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if fix := g.Fix(only); len(fix) != 1 || fix[0].Command != "apt-get install python3-idna=3.3-1" {
		t.Errorf("fix %+v; want apt-get install python3-idna=3.3-1", fix)
	}
	if g.Package != idna {
		t.Errorf("group's package %+v; want python3-idna's", g.Package)
	}
}
