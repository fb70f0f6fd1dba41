package materialize

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
)

// pyPackagePrelude records, in the host's environment, a python3 program
// that imports idna from Debian's python3-idna (a small pure-Python
// package: the idna/ directory with its modules, their byte code in
// idna/__pycache__ compiled by the package's postinst, and
// idna-X.egg-info) and encodes an internationalized domain name with it;
// it writes its TracerPid to stderr first. $OUT/version is the package's
// version, $OUT/top its entries in dist-packages.
//
// Python stats each module's .py source and reads the .pyc in
// __pycache__ when that matches the source's size and mtime: record keeps
// the content of the .py files too because python3-idna owns them (the
// rule of record's contentStore.KeepStated), and so a run can put the
// whole package back.
const pyPackagePrelude = `
pkg=python3-idna
dp=/usr/lib/python3/dist-packages
dpkg-query -W -f '${Version}\n' $pkg > "$OUT/version"
dpkg-query -L $pkg | sed -n "s,^$dp/\([^/]*\)\$,\1,p" > "$OUT/top"
check='
import sys
with open("/proc/self/status") as f:
    sys.stderr.write("".join(l for l in f if l.startswith("TracerPid:")))
import idna
got = idna.encode("b\u00fccher.example")
print(got)
sys.exit(got != b"xn--bcher-kva.example")
'
record_good /usr/bin/python3 -c "$check"
`

// pyPackageNotInstalled makes python3-idna "not installed" here, in the
// test's mount namespace: a copy of dist-packages without the package's
// entries (its directory, with the byte code, and its egg-info) is bound
// over it, and a copy of dpkg's database without its status entry and
// its info files over /var/lib/dpkg, as after apt-get remove.
const pyPackageNotInstalled = `
cp -a $dp "$W/dp"
for e in $(cat "$OUT/top"); do rm -r "$W/dp/$e"; done
mount --bind "$W/dp" $dp
cp -a /var/lib/dpkg "$W/dpkg"
rm "$W/dpkg/info/$pkg".*
awk -v p="$pkg" '/^Package: /{skip=($2==p)} !skip {print} /^$/{skip=0}' /var/lib/dpkg/status > "$W/dpkg/status"
mount --bind "$W/dpkg" /var/lib/dpkg
if dpkg-query -W -f '${Status}\n' $pkg 2>/dev/null | grep -q installed; then echo "$pkg still installed here" >&2; exit 1; fi
`

// pyPackageFilesDeleted deletes the package's files by hand (in the same
// copy of dist-packages), while dpkg's database still lists it.
const pyPackageFilesDeleted = `
cp -a $dp "$W/dp"
for e in $(cat "$OUT/top"); do rm -r "$W/dp/$e"; done
mount --bind "$W/dp" $dp
`

// TestMaterializePythonPackageMissing: a python3 program imports a
// module of a Debian Python package (python3-idna), and here the package
// is not there. The cause is the package, named whole with its version
// ("python3-idna VERSION is not installed here (N files and 2
// directories)"), its objects being its directory idna/ and idna/__pycache__/, its
// modules and their byte code, and the fix is
// apt-get install python3-idna=VERSION, validated by a run.
//
//   - not installed: apt-get remove's result (the main case: dpkg here
//     does not know the package either);
//   - files deleted: the package's files removed by hand while dpkg still
//     lists it. The cause and fix are the same: the files are what the
//     program needs, and installing that version puts them back.
func TestMaterializePythonPackageMissing(t *testing.T) {
	testutil.Require(t, testutil.Root, testutil.Binary("dpkg-query"), testutil.File("/usr/bin/python3"),
		testutil.File("/usr/lib/python3/dist-packages/idna/__init__.py"))
	for _, tc := range []struct{ name, hide string }{
		{"not installed", pyPackageNotInstalled},
		{"files deleted", pyPackageFilesDeleted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := testutil.InWorkNS(t, prelude+pyPackagePrelude+tc.hide+`
locate_bad /usr/bin/python3 -c "$check"
`)
			const pkg, dir = "python3-idna", "/usr/lib/python3/dist-packages/idna"
			version := testutil.ReadText(t, out, "version")
			_, c := located(t, out)
			if c.Kind != "package" || c.Package == nil || c.Package.Name != pkg || c.Package.Version != version {
				t.Fatalf("cause %s %q (package %+v); want the package %s %s", c.Kind, c.Name, c.Package, pkg, version)
			}
			says := regexp.MustCompile(`^` + regexp.QuoteMeta(pkg+" "+version) + ` is not installed here \((\d+) files and 2 directories\)$`)
			m := says.FindStringSubmatch(c.Says)
			if m == nil {
				t.Errorf("says %q; want %q", c.Says, says)
			} else if m[1] != strconv.Itoa(len(c.Objects)-2) {
				t.Errorf("says %s files; the cause holds %d objects, 2 of them directories", m[1], len(c.Objects))
			}
			var sources, caches int
			paths := map[string]bool{}
			for _, o := range c.Objects {
				paths[o.Path] = true
				if o.Good.Exists == o.Here.Exists || o.Here.Exists {
					t.Errorf("%s: exists %v in the good run, %v here; want missing here only", o.Path, o.Good.Exists, o.Here.Exists)
				}
				switch {
				case o.Path == dir || o.Path == dir+"/__pycache__":
				case strings.HasPrefix(o.Path, dir+"/__pycache__/") && strings.HasSuffix(o.Path, ".pyc"):
					caches++
				case strings.HasPrefix(o.Path, dir+"/") && strings.HasSuffix(o.Path, ".py"):
					sources++
				default:
					t.Errorf("the package's objects hold %s: want only idna's directory, modules and byte code", o.Path)
				}
			}
			if !paths[dir] || !paths[dir+"/__init__.py"] {
				t.Errorf("the package's objects %v; want its directory and __init__.py", paths)
			}
			if sources < 3 || caches < 3 {
				t.Errorf("the package holds %d sources and %d byte-code files; want the modules idna imports (core, idnadata, intranges ...) and their .pyc", sources, caches)
			}
			if !strings.Contains(c.FirstCall, `"`+dir) {
				t.Errorf("first call %q; want one on a file of the package", c.FirstCall)
			}
			wantFix(t, c, "apt-get install "+pkg+"="+version)
		})
	}
}
