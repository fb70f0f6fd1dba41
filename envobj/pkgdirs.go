package envobj

import (
	"strings"

	"github.com/envbisect/envbisect/trace"
)

// packageDirs returns the directories among objs[idx] that a package's
// group takes (by index, with the package): a directory missing here
// that no package is known to own (the trace names the owners of the
// files it kept, not of directories) goes with package P when every
// object of idx under it is P's, or another such directory, and one at
// least is P's.
//
// That is what a package that is not installed here looks like: Python's
// idna/ and idna/__pycache__/ are missing with python3-idna's modules
// and their byte code, and installing python3-idna makes them. Without
// it they would be candidates of their own beside the package, a
// directory made by the run that puts the package's files in place
// anyway. A directory that also holds a file no package owns, or files
// of two packages, stays a directory of its own.
func packageDirs(objs []Object, idx []int) map[int]*trace.Package {
	var out map[int]*trace.Package
	for _, i := range idx {
		if !bareMissingDir(&objs[i]) {
			continue
		}
		prefix := strings.TrimSuffix(objs[i].Path, "/") + "/"
		var pk *trace.Package
		mixed := false
		for _, j := range idx {
			o := &objs[j]
			if j == i || !strings.HasPrefix(o.Path, prefix) {
				continue
			}
			switch {
			case o.Package != nil && o.Package.Name != "":
				if pk == nil {
					pk = o.Package
				} else if packageKey(pk) != packageKey(o.Package) {
					mixed = true
				}
			case bareMissingDir(o):
			default:
				mixed = true
			}
			if mixed {
				break
			}
		}
		if pk == nil || mixed {
			continue
		}
		if out == nil {
			out = map[int]*trace.Package{}
		}
		out[i] = pk
	}
	return out
}

// bareMissingDir reports whether o is a directory of the good run that
// is missing here, with no package known to own it.
func bareMissingDir(o *Object) bool {
	return o.Good.Exists && o.Good.Type == TypeDir && !o.Here.Exists && (o.Package == nil || o.Package.Name == "")
}
