package record

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/pkgdb"
	"github.com/envbisect/envbisect/trace"
)

// fakeDpkg writes a dpkg database under root: zlib1g at version, owning
// libz.
func fakeDpkg(t *testing.T, root, version string) {
	t.Helper()
	files := map[string]string{
		"var/lib/dpkg/status":                 "Package: zlib1g\nStatus: install ok installed\nArchitecture: amd64\nVersion: " + version + "\n\n",
		"var/lib/dpkg/info/zlib1g:amd64.list": "/.\n/usr/lib\n/usr/lib/libz.so.1\n",
	}
	for name, text := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		// A new file renamed into place, as dpkg writes its database.
		tmp := p + ".new"
		if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, p); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOwnerCache: the owners a recording looked up are served to the
// next one from the cache while the package database is unchanged, a
// file under /tmp gets the database's "no owner" answer from it, and a
// changed database (a new version installed) is looked up again.
func TestOwnerCache(t *testing.T) {
	root, dir := t.TempDir(), t.TempDir()
	fakeDpkg(t, root, "1:1.2.13-1")
	store := func() *contentStore {
		return &contentStore{owners: pkgdb.OpenWhole(root), ownerCache: loadOwnerCache(dir, root, nil)}
	}
	owner := func(c *contentStore, path string) *trace.Package {
		obj := &trace.FileObject{Path: path}
		c.lookUpOwner(obj)
		return obj.Package
	}

	c := store()
	if c.ownerCache.warm() {
		t.Fatal("an empty directory gave a warm owner cache")
	}
	if pk := owner(c, "/usr/lib/libz.so.1"); pk == nil || pk.Name != "zlib1g" || pk.Version != "1:1.2.13-1" {
		t.Fatalf("libz owned by %+v, want zlib1g 1:1.2.13-1", pk)
	}
	if pk := owner(c, "/usr/share/nothing"); pk == nil || pk.Name != "" || pk.Manager != trace.PackageDpkg {
		t.Fatalf("an unowned file got %+v, want dpkg's answer with no name", pk)
	}
	c.ownerCache.save()

	c = store()
	if !c.ownerCache.warm() {
		t.Fatal("the owners saved were not loaded back")
	}
	if pk, ok := c.ownerCache.get("/usr/lib/libz.so.1", ""); !ok || pk.Name != "zlib1g" {
		t.Fatalf("cached owner of libz: %+v, %v", pk, ok)
	}
	if pk, ok := c.ownerCache.get("/tmp/cc1234.s", ""); !ok || pk.Name != "" || pk.Manager != trace.PackageDpkg {
		t.Errorf("a temporary file's owner from the cache: %+v, %v; want dpkg's answer with no name", pk, ok)
	}

	fakeDpkg(t, root, "1:1.3-1") // an upgrade
	c = store()
	if c.ownerCache.warm() {
		t.Fatal("the owners of the old database were served after it changed")
	}
	if pk := owner(c, "/usr/lib/libz.so.1"); pk == nil || pk.Version != "1:1.3-1" {
		t.Fatalf("after the upgrade libz is owned by %+v, want version 1:1.3-1", pk)
	}
}

// TestOwnerCacheRecordings: a repeated recording names the same owners
// of the files it keeps as the first, which looked them up in this
// machine's package database.
func TestOwnerCacheRecordings(t *testing.T) {
	testutil.Require(t, testutil.Binary("sort"), testutil.Binary("dpkg"))
	sortBin, _ := exec.LookPath("sort")
	cache := filepath.Join(t.TempDir(), "cache")
	opts := Options{ContentCache: cache}
	_, first := recordIn(t, opts, sortBin, "/etc/services")
	if _, err := os.Stat(filepath.Join(cache, ownerCacheFile)); err != nil {
		t.Fatalf("the first recording kept no owners: %v", err)
	}
	_, second := recordIn(t, opts, sortBin, "/etc/services")
	owned := 0
	for _, f := range first.Files {
		a, b := f.Package, objectOf(second, f.Path)
		if b == nil {
			t.Errorf("%s kept by the first recording, not by the second", f.Path)
			continue
		}
		if (a == nil) != (b.Package == nil) || a != nil && *a != *b.Package {
			t.Errorf("%s: owned by %+v, then %+v", f.Path, a, b.Package)
		}
		if a != nil && a.Name != "" {
			owned++
		}
	}
	if owned == 0 {
		t.Error("no file of sort's owned by a package: the database was not read")
	}
}
