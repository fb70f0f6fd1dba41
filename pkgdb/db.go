package pkgdb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/envbisect/envbisect/trace"
)

// ErrRPM is Owner's answer on a root whose package database is rpm's,
// which this package does not read.
var ErrRPM = errors.New("rpm database (/var/lib/rpm) not read: it takes an SQLite or Berkeley DB reader")

// DB is the package database of one file system root, indexed at the
// first Owner call: first the paths with a usual name of a library or
// program (Usual), then, at the first lookup of another path, all.
type DB struct {
	root string
	// whole: index every owned path at the first lookup (OpenWhole).
	whole bool

	once sync.Once
	idx  *index
	err  error

	allOnce sync.Once
	all     *index
	allErr  error
}

// index maps owned paths to packages.
type index struct {
	manager string
	owners  map[string]int32 // path -> index in pkgs
	pkgs    []trace.Package
}

// Open returns the database of the file system at root ("/", or
// "/proc/PID/root" for what a process sees). It reads nothing yet.
func Open(root string) *DB {
	if root == "" {
		root = "/"
	}
	return &DB{root: root}
}

// OpenWhole is Open for a caller that looks up files of every kind (a
// recording names the owner of every file it keeps): the first lookup
// indexes every owned path at once, instead of the paths with a usual
// name first and the rest at the first other path, which such a caller
// meets at once (a configuration file, a module).
func OpenWhole(root string) *DB {
	d := Open(root)
	d.whole = true
	return d
}

// Owner returns the package that owns path (absolute, as seen inside the
// root), trying resolved too when it is not "" (path with its symbolic
// links followed): nil, nil when the root has no package database; a
// Package with no Name when the database holds no owner of it.
func (d *DB) Owner(path, resolved string) (*trace.Package, error) {
	if d.whole {
		return d.ownerWhole(path, resolved)
	}
	d.once.Do(func() { d.idx, d.err = load(d.root, Usual) })
	if d.err != nil {
		return nil, d.err
	}
	if d.idx == nil {
		return nil, nil
	}
	usual := true
	for _, p := range []string{path, resolved} {
		usual = usual && (p == "" || Usual(p))
	}
	if pk, ok := d.idx.lookup(names(path, resolved)); ok || usual {
		return pk, nil
	}
	return d.ownerWhole(path, resolved)
}

// ownerWhole is Owner from the whole index.
func (d *DB) ownerWhole(path, resolved string) (*trace.Package, error) {
	d.allOnce.Do(func() { d.all, d.allErr = load(d.root, nil) })
	if d.allErr != nil || d.all == nil {
		return nil, d.allErr
	}
	pk, _ := d.all.lookup(names(path, resolved))
	return pk, nil
}

// names are the paths a lookup of path (and resolved, when not "")
// tries: each and its /usr-merge alias, then the source of a compiled
// Python module (pycSource).
func names(path, resolved string) []string {
	var out, src []string
	for _, p := range []string{path, resolved} {
		if p == "" {
			continue
		}
		p = filepath.Clean(p)
		out = append(out, aliases(p)...)
		if s := pycSource(p); s != "" {
			src = append(src, aliases(s)...)
		}
	}
	return append(out, src...)
}

// pycSource is the module a compiled Python file in a __pycache__
// directory was compiled from (PEP 3147: dir/__pycache__/NAME.TAG.pyc
// from dir/NAME.py), "" for another path. Debian's packages list the
// source and compile it when installed (py3compile): the package that
// owns the source owns the compiled file.
func pycSource(p string) string {
	dir, base := filepath.Split(p)
	dir = filepath.Clean(dir)
	if filepath.Base(dir) != "__pycache__" || !strings.HasSuffix(base, ".pyc") {
		return ""
	}
	name, _, _ := strings.Cut(base, ".")
	return filepath.Join(filepath.Dir(dir), name+".py")
}

// lookup returns the owner of the first of names idx holds; ok false
// (and a Package with no Name) when it holds none.
func (idx *index) lookup(names []string) (pk *trace.Package, ok bool) {
	for _, q := range names {
		if i, ok := idx.owners[q]; ok {
			pk := idx.pkgs[i]
			return &pk, true
		}
	}
	return &trace.Package{Manager: idx.manager}, false
}

// Usual reports whether path has the usual name of a shared library
// (".so" at its end or before a version: "libz.so.1") or is in a bin or
// sbin directory: the paths the first index
// holds (a tenth of a Debian system's: the rest are documentation,
// headers, data and modules).
func Usual(path string) bool {
	i := strings.LastIndexByte(path, '/')
	if i < 0 {
		return sharedObjectName(path)
	}
	dir := path[strings.LastIndexByte(path[:i], '/')+1 : i]
	return dir == "bin" || dir == "sbin" || sharedObjectName(path[i+1:])
}

// load reads the database root holds: dpkg's, else apk's; nil when there
// is none. keep, when not nil, says which of dpkg's paths to index.
func load(root string, keep func(string) bool) (*index, error) {
	in := func(p string) string { return filepath.Join(root, p) }
	switch {
	case exists(in(dpkgStatus)):
		idx, err := loadDpkg(in(dpkgInfo), in(dpkgStatus), maxListBytes, keep)
		if err != nil {
			return nil, fmt.Errorf("dpkg database in %s: %w", root, err)
		}
		return idx, nil
	case exists(in(apkInstalled)):
		f, err := os.Open(in(apkInstalled))
		if err != nil {
			return nil, fmt.Errorf("apk database in %s: %w", root, err)
		}
		defer f.Close()
		idx, err := readApk(f)
		if err != nil {
			return nil, fmt.Errorf("apk database %s: %w", in(apkInstalled), err)
		}
		return idx, nil
	case exists(in("/var/lib/rpm")):
		return nil, ErrRPM
	}
	return nil, nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// aliases are p and its /usr-merge alias, if it has one: the top-level
// directories that /usr-merge makes links to their /usr counterparts.
func aliases(p string) []string {
	for _, d := range []string{"bin", "sbin", "lib", "lib32", "lib64", "libx32"} {
		if rest, ok := strings.CutPrefix(p, "/usr/"+d+"/"); ok {
			return []string{p, "/" + d + "/" + rest}
		}
		if rest, ok := strings.CutPrefix(p, "/"+d+"/"); ok {
			return []string{p, "/usr/" + d + "/" + rest}
		}
	}
	return []string{p}
}

// ProgramOrLibrary reports whether a file is an executable (a regular
// file with an execute bit in mode) or a shared library (a name with
// ".so" at its end or before a version, "libz.so.1"): a file that no
// package owning it says something ("installed by hand or built").
func ProgramOrLibrary(path string, mode uint32) bool {
	if mode&0o170000 == 0o100000 && mode&0o111 != 0 {
		return true
	}
	return sharedObjectName(filepath.Base(path))
}

// sharedObjectName reports whether base ends in ".so" or in ".so" and a
// version ("libz.so.1.2.13").
func sharedObjectName(base string) bool {
	i := strings.LastIndex(base, ".so")
	for i > 0 {
		if strings.Trim(base[i+3:], "0123456789.") == "" {
			return true
		}
		i = strings.LastIndex(base[:i], ".so")
	}
	return false
}
