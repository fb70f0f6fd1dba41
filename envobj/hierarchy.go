package envobj

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// GroupKind is what a Group gathers.
type GroupKind string

// The kinds of a Group.
const (
	// GroupPackage: the objects a package owned in the good run
	// (Object.Package): "python3-yaml 6.0-3 (dpkg)".
	GroupPackage GroupKind = "package"
	// GroupDir: the objects under one directory, their nearest common
	// one ("/etc/app.d"); when the directory is itself an object (missing
	// here, with entries that differ), that object too.
	GroupDir GroupKind = "directory"
	// GroupObject: one object.
	GroupObject GroupKind = "object"
	// GroupMtime: the objects whose modification time alone differs,
	// rarely a cause: searched last.
	GroupMtime GroupKind = "mtime"
)

// Group is a node of the hierarchy the object search runs over (Misherghi
// and Su's hierarchical delta debugging: package, directory, file).
type Group struct {
	Kind GroupKind
	// Path is a directory's or an object's path; "" for a package and
	// the mtime group.
	Path string
	// Package is a GroupPackage's package.
	Package *trace.Package
	// Object is the index of the object a GroupObject is, or of the
	// directory a GroupDir is when it is an object itself; -1 otherwise.
	Object int
	// Objects are the indexes of every object in the group, in the
	// tree's order (a directory before what it holds, names sorted).
	Objects []int
	// Children are the groups one level down, in path order: a package's
	// or the mtime group's directories and objects (the top of their
	// directory tree), a directory's subdirectories and objects (a
	// directory that is an object has itself first, as a GroupObject);
	// nil for a GroupObject.
	Children []*Group
}

// Name is what the group is, for a person: "package python3-yaml 6.0-3
// (dpkg)", "directory /etc/app.d", "/etc/app.conf", "3 objects whose
// modification time alone differs".
func (g *Group) Name() string {
	switch g.Kind {
	case GroupPackage:
		return "package " + g.Package.String()
	case GroupDir:
		return "directory " + g.Path
	case GroupMtime:
		return fmt.Sprintf("%d %s whose modification time alone differs", len(g.Objects), nouns(len(g.Objects), "object", "objects"))
	}
	return g.Path
}

// Unplaced is an object that differs here and that no run can put in
// place (Object.Materializable), or for which a run has nothing to do:
// not a candidate of the object search, listed for the report and for
// the call-level search, which may still replay the calls that met it.
type Unplaced struct {
	// Index is the object's index in the list the hierarchy was built
	// from.
	Index int    `json:"index"`
	Path  string `json:"path"`
	// What says what differs (Object.Describe), Why why no run puts it
	// in place.
	What     string `json:"what"`
	Why      string `json:"why"`
	FirstSeq uint64 `json:"first_seq,omitempty"`
}

// Hierarchy is the objects that differ here, grouped for the search.
type Hierarchy struct {
	// Top are the candidates of the search's first level: one group per
	// package, then the top of the directory tree of the objects no
	// package owned (the nodes under their nearest common directory),
	// then, last, the objects whose modification time alone differs, as
	// one group. Each object that can be put in place is in exactly one
	// of them.
	Top []*Group
	// Unplaced are the objects that are not candidates, in index order.
	Unplaced []Unplaced
}

// Build groups objs (by index) for the search: by the package that owned
// each in the good run, when one did (a directory missing here that
// holds only a package's missing objects goes with them: packageDirs),
// else by directory, recursively;
// objects whose modification time alone differs go in a group of their
// own, last. An object that cannot be materialized, or for which a run
// would do nothing (Ops is empty: a directory whose entries alone differ,
// each of them an object of its own), or a second object at the same
// path, is left out and listed.
func Build(objs []Object) Hierarchy {
	var h Hierarchy
	var placed, plain, mtime []int
	pkgs := map[string][]int{}
	pkgOf := map[string]*trace.Package{}
	var pkgOrder []string
	seen := map[string]int{}
	for i := range objs {
		o := &objs[i]
		if j, dup := seen[path.Clean(o.Path)]; dup {
			h.Unplaced = append(h.Unplaced, Unplaced{Index: i, Path: o.Path, What: o.Describe(), FirstSeq: o.FirstSeq,
				Why: fmt.Sprintf("object %d has the same path", j)})
			continue
		}
		seen[path.Clean(o.Path)] = i
		if ok, why := o.Materializable(); !ok {
			h.Unplaced = append(h.Unplaced, Unplaced{Index: i, Path: o.Path, What: o.Describe(), Why: why, FirstSeq: o.FirstSeq})
			continue
		}
		if ops, err := o.Ops(); err != nil || len(ops) == 0 {
			why := fmt.Sprintf("a run has nothing to change for it (what differs: %s)", o.Differs)
			if err != nil {
				why = err.Error()
			}
			h.Unplaced = append(h.Unplaced, Unplaced{Index: i, Path: o.Path, What: o.Describe(), Why: why, FirstSeq: o.FirstSeq})
			continue
		}
		placed = append(placed, i)
	}
	dirs := packageDirs(objs, placed)
	for _, i := range placed {
		o := &objs[i]
		pk := o.Package
		if d := dirs[i]; d != nil {
			pk = d
		}
		switch {
		case o.MtimeOnly():
			mtime = append(mtime, i)
		case pk != nil && pk.Name != "":
			k := packageKey(pk)
			if _, ok := pkgs[k]; !ok {
				pkgOrder = append(pkgOrder, k)
				pkgOf[k] = pk
			}
			pkgs[k] = append(pkgs[k], i)
		default:
			plain = append(plain, i)
		}
	}
	sort.Strings(pkgOrder)
	for _, k := range pkgOrder {
		idx := pkgs[k]
		kids := tree(objs, idx)
		h.Top = append(h.Top, &Group{Kind: GroupPackage, Package: pkgOf[k], Object: -1,
			Objects: byPath(objs, idx), Children: kids})
	}
	h.Top = append(h.Top, tree(objs, plain)...)
	if len(mtime) > 0 {
		h.Top = append(h.Top, &Group{Kind: GroupMtime, Object: -1, Objects: byPath(objs, mtime), Children: tree(objs, mtime)})
	}
	return h
}

// MtimeOnly reports whether the object's modification time is all that
// differs.
func (o *Object) MtimeOnly() bool {
	return len(o.Differs) == 1 && o.Differs[0] == AspectMtime
}

// packageKey identifies a package: manager, name, version, architecture.
func packageKey(p *trace.Package) string {
	return strings.Join([]string{p.Name, p.Version, p.Arch, p.Manager}, "\x00")
}

// byPath returns idx sorted by the objects' paths.
func byPath(objs []Object, idx []int) []int {
	out := append([]int(nil), idx...)
	sort.SliceStable(out, func(a, b int) bool { return objs[out[a]].Path < objs[out[b]].Path })
	return out
}

// nouns is one or many by n.
func nouns(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
