package pkgdb

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// write creates the files of files (path relative to root -> content).
func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const dpkgStatusText = `Package: zlib1g
Status: install ok installed
Priority: optional
Architecture: amd64
Multi-Arch: same
Version: 1:1.2.13.dfsg-1
Description: compression library - runtime
 zlib is a library implementing the deflate compression method found
 in gzip and PKZIP.

Package: coreutils
Status: install ok installed
Architecture: amd64
Version: 9.1-1
Conffiles:
 /etc/x 0123

Package: gone
Status: deinstall ok config-files
Architecture: amd64
Version: 0.1-1
`

func TestDpkgOwner(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"var/lib/dpkg/status":                    dpkgStatusText,
		"var/lib/dpkg/info/zlib1g:amd64.list":    "/.\n/lib\n/lib/x86_64-linux-gnu\n/lib/x86_64-linux-gnu/libz.so.1.2.13\n/lib/x86_64-linux-gnu/libz.so.1\n",
		"var/lib/dpkg/info/coreutils.list":       "/.\n/usr/bin/cat\n/bin/ls\n/usr/lib/coreutils\n/usr/lib/coreutils/helper\n/usr/lib/coreutils/mod.py\n",
		"var/lib/dpkg/info/zlib1g:amd64.md5sums": "0123 lib/x86_64-linux-gnu/libz.so.1.2.13\n",
	})
	for _, db := range []*DB{Open(root), OpenWhole(root)} {
		testOwners(t, db)
	}
	if got, err := OpenWhole(t.TempDir()).Owner("/usr/bin/cat", ""); got != nil || err != nil {
		t.Errorf("OpenWhole of a root without a database: %+v, %v; want nil, nil", got, err)
	}
}

// testOwners checks db's answers on TestDpkgOwner's database.
func testOwners(t *testing.T, db *DB) {
	zlib := trace.Package{Manager: "dpkg", Name: "zlib1g", Version: "1:1.2.13.dfsg-1", Arch: "amd64"}
	core := trace.Package{Manager: "dpkg", Name: "coreutils", Version: "9.1-1", Arch: "amd64"}
	for _, c := range []struct {
		name, path, resolved string
		want                 trace.Package
	}{
		{"as listed", "/lib/x86_64-linux-gnu/libz.so.1", "", zlib},
		{"usr-merge alias of a /lib path", "/usr/lib/x86_64-linux-gnu/libz.so.1.2.13", "", zlib},
		{"usr-merge alias of a /usr path", "/bin/cat", "", core},
		{"by the resolved path", "/opt/app/libz.so", "/usr/lib/x86_64-linux-gnu/libz.so.1.2.13", zlib},
		{"not owned", "/usr/local/lib/libz.so.1", "", trace.Package{Manager: "dpkg"}},
		{"an unusual path, from the whole index", "/usr/lib/coreutils/helper", "", core},
		{"a directory is owned by none", "/usr/lib/coreutils", "", trace.Package{Manager: "dpkg"}},
		{"a compiled Python module, by its source", "/usr/lib/coreutils/__pycache__/mod.cpython-311.pyc", "", core},
		{"a compiled module whose source no package has", "/usr/lib/coreutils/__pycache__/other.cpython-311.opt-1.pyc", "", trace.Package{Manager: "dpkg"}},
	} {
		t.Run(fmt.Sprintf("%s/whole=%v", c.name, db.whole), func(t *testing.T) {
			got, err := db.Owner(c.path, c.resolved)
			if err != nil {
				t.Fatal(err)
			}
			if got == nil || *got != c.want {
				t.Errorf("Owner(%s) = %+v; want %+v", c.path, got, c.want)
			}
		})
	}
}

func TestDpkgStatusInstalledOnly(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "status")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(dpkgStatusText)
	f.Seek(0, 0)
	defer f.Close()
	got, err := readDpkgStatus(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := got["gone"]; ok {
		t.Errorf("a package left as config-files is read as installed: %+v", got["gone"])
	}
	if got["zlib1g:amd64"].Version != "1:1.2.13.dfsg-1" || got["coreutils"].Version != "9.1-1" {
		t.Errorf("versions %+v", got)
	}
}

func TestDpkgListBound(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"var/lib/dpkg/status":          dpkgStatusText,
		"var/lib/dpkg/info/big.list":   "/usr/bin/a\n/usr/bin/b\n/usr/bin/c\n",
		"var/lib/dpkg/info/small.list": "/usr/bin/d\n",
	})
	if _, err := loadDpkg(filepath.Join(root, dpkgInfo), filepath.Join(root, dpkgStatus), 20, nil); err == nil {
		t.Errorf("an index past its bound of 20 bytes was built")
	}
	if _, err := loadDpkg(filepath.Join(root, dpkgInfo), filepath.Join(root, dpkgStatus), 100, nil); err != nil {
		t.Errorf("within the bound: %v", err)
	}
}

func TestApkOwner(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"lib/apk/db/installed": `C:Q1abc=
P:musl
V:1.2.4-r2
A:x86_64
S:383152
F:lib
R:ld-musl-x86_64.so.1
a:0:0:755
Z:Q1def=
R:libc.musl-x86_64.so.1

C:Q1ghi=
P:zlib
V:1.3.1-r0
A:x86_64
F:lib
R:libz.so.1.3.1
R:libz.so.1
F:usr/share/doc/zlib
R:README

`})
	db := Open(root)
	for _, c := range []struct {
		path string
		want trace.Package
	}{
		{"/lib/ld-musl-x86_64.so.1", trace.Package{Manager: "apk", Name: "musl", Version: "1.2.4-r2", Arch: "x86_64"}},
		{"/usr/lib/libz.so.1", trace.Package{Manager: "apk", Name: "zlib", Version: "1.3.1-r0", Arch: "x86_64"}},
		{"/usr/share/doc/zlib/README", trace.Package{Manager: "apk", Name: "zlib", Version: "1.3.1-r0", Arch: "x86_64"}},
		{"/lib/libcrypto.so.3", trace.Package{Manager: "apk"}},
	} {
		got, err := db.Owner(c.path, "")
		if err != nil {
			t.Fatal(err)
		}
		if got == nil || *got != c.want {
			t.Errorf("Owner(%s) = %+v; want %+v", c.path, got, c.want)
		}
	}
}

func TestNoDatabase(t *testing.T) {
	got, err := Open(t.TempDir()).Owner("/lib/libz.so.1", "")
	if got != nil || err != nil {
		t.Errorf("a root without a database: %+v, %v; want nil, nil", got, err)
	}
}

func TestRPMNotRead(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"var/lib/rpm/rpmdb.sqlite": "SQLite format 3\x00"})
	if _, err := Open(root).Owner("/usr/lib64/libz.so.1", ""); err != ErrRPM {
		t.Errorf("rpm database: %v; want ErrRPM", err)
	}
}

func TestProgramOrLibrary(t *testing.T) {
	for _, c := range []struct {
		path string
		mode uint32
		want bool
	}{
		{"/usr/lib/x86_64-linux-gnu/libz.so.1", 0o100644, true},
		{"/usr/lib/x86_64-linux-gnu/libz.so", 0o100644, true},
		{"/usr/bin/cat", 0o100755, true},
		{"/etc/ld.so.cache", 0o100644, false},
		{"/etc/app.conf", 0o100644, false},
		{"/usr/lib/python3/x.sock", 0o100644, false},
	} {
		if got := ProgramOrLibrary(c.path, c.mode); got != c.want {
			t.Errorf("ProgramOrLibrary(%s, %o) = %v; want %v", c.path, c.mode, got, c.want)
		}
	}
}

// BenchmarkDpkgIndex builds the first index of this machine's dpkg
// database (libraries and programs in bin directories) and looks a
// library up: what a recording pays once (docs/performance.md).
func BenchmarkDpkgIndex(b *testing.B) {
	benchOwner(b, "/usr/lib/x86_64-linux-gnu/libc.so.6")
}

// BenchmarkDpkgIndexAll builds both indexes: the lookup of a path with
// an unusual name for a program (gcc's cc1) needs the whole one.
func BenchmarkDpkgIndexAll(b *testing.B) {
	benchOwner(b, "/usr/lib/gcc/x86_64-linux-gnu/12/cc1")
}

// BenchmarkDpkgIndexWhole builds the whole index at once, as a
// recording does (OpenWhole): it looks up every file it keeps.
func BenchmarkDpkgIndexWhole(b *testing.B) {
	benchOwnerIn(b, OpenWhole, "/usr/lib/x86_64-linux-gnu/libc.so.6")
}

func benchOwner(b *testing.B, path string) { benchOwnerIn(b, Open, path) }

func benchOwnerIn(b *testing.B, open func(string) *DB, path string) {
	if _, err := os.Stat(dpkgStatus); err != nil {
		b.Skip("no dpkg database here")
	}
	for b.Loop() {
		if _, err := open("/").Owner(path, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzDatabases feeds the dpkg status and apk installed readers arbitrary
// text, as a container's (or a crafted) root can hold: no input may make
// them panic or return an owner without a name.
func FuzzDatabases(f *testing.F) {
	f.Add([]byte("Package: zlib1g\nStatus: install ok installed\nArchitecture: amd64\nVersion: 1:1.2.13.dfsg-1\n\n"))
	f.Add([]byte("P:musl\nV:1.2.4-r2\nA:x86_64\nF:lib\nR:ld-musl-x86_64.so.1\n\n"))
	f.Add([]byte("Package: \nStatus: \n\n\n\xff\xfe\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if st, err := readDpkgStatus(bytes.NewReader(b)); err == nil {
			for name, pk := range st {
				if name == "" || pk.Name == "" {
					t.Fatalf("dpkg status gave an owner without a name: %q -> %+v", name, pk)
				}
			}
		}
		readApk(bytes.NewReader(b))
	})
}
