package bisect

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/envobj"
)

// objUnit is one candidate of the object search at some level of the
// hierarchy: a group (package, directory, object, the modification
// times) or a start item. A run puts a set of units in place: the union
// of their objects and start items.
type objUnit struct {
	name  string
	objs  []int         // sorted
	start []int         // sorted
	group *envobj.Group // nil for a start item
}

// topUnits are the first level's candidates: every start item, then the
// hierarchy's top groups (packages, directories and objects, the
// modification times last).
func topUnits(items []StartItem, h envobj.Hierarchy) []*objUnit {
	var out []*objUnit
	for i, it := range items {
		out = append(out, &objUnit{name: it.Label(), start: []int{i}})
	}
	for _, g := range h.Top {
		out = append(out, groupUnit(g))
	}
	return out
}

// groupUnit is the unit of group g.
func groupUnit(g *envobj.Group) *objUnit {
	return &objUnit{name: g.Name(), objs: slices.Sorted(slices.Values(g.Objects)), group: g}
}

// children are u's units one level down: a package's objects each (a
// package is named whole unless one file of it alone does), a
// directory's or the modification times' children; nil for an object or
// a start item.
func (u *objUnit) children(objs []envobj.Object) []*objUnit {
	g := u.group
	if g == nil || g.Kind == envobj.GroupObject {
		return nil
	}
	var out []*objUnit
	if g.Kind == envobj.GroupPackage {
		for _, i := range g.Objects {
			out = append(out, groupUnit(&envobj.Group{Kind: envobj.GroupObject, Path: objs[i].Path, Object: i, Objects: []int{i}}))
		}
		return out
	}
	for _, k := range g.Children {
		out = append(out, groupUnit(k))
	}
	return out
}

// request is the run that puts units in place.
func request(units []*objUnit) ObjectRequest {
	var r ObjectRequest
	for _, u := range units {
		r.Objects = append(r.Objects, u.objs...)
		r.Start = append(r.Start, u.start...)
	}
	slices.Sort(r.Objects)
	slices.Sort(r.Start)
	r.Objects = slices.Compact(r.Objects)
	r.Start = slices.Compact(r.Start)
	r.InPlace = inPlace(units)
	return r
}

// inPlace names what units put in place: "nothing", "package
// python3-yaml 6.0-3 (dpkg) + env TZ", "/a + /b + /c + 2 more".
func inPlace(units []*objUnit) string {
	if len(units) == 0 {
		return envobj.InPlaceNothing
	}
	const shown = 3
	var names []string
	for i, u := range units {
		if i == shown {
			names = append(names, strconv.Itoa(len(units)-shown)+" more")
			break
		}
		names = append(names, u.name)
	}
	return strings.Join(names, " + ")
}

// without is r less u's objects and start items, named "all but ...".
func without(r ObjectRequest, u *objUnit) ObjectRequest {
	out := ObjectRequest{InPlace: "all but " + u.name}
	for _, i := range r.Objects {
		if !slices.Contains(u.objs, i) {
			out.Objects = append(out.Objects, i)
		}
	}
	for _, i := range r.Start {
		if !slices.Contains(u.start, i) {
			out.Start = append(out.Start, i)
		}
	}
	return out
}

// key identifies a request by what it puts in place.
func (r ObjectRequest) key() string {
	return fmt.Sprint(r.Objects, r.Start, r.Narrow)
}

// within reports whether a puts in place nothing b does not.
func within(a, b ObjectRequest) bool {
	return subset(a.Objects, b.Objects) && subset(a.Start, b.Start)
}

// subset reports whether the sorted a is a subset of the sorted b.
func subset(a, b []int) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
		j++
	}
	return true
}

// split cuts units into n parts of sizes as even as possible, in order.
func split(units []*objUnit, n int) [][]*objUnit {
	out := make([][]*objUnit, 0, n)
	at := 0
	for i := range n {
		size := (len(units) - at) / (n - i)
		out = append(out, units[at:at+size])
		at += size
	}
	return out
}

// minus is units less those of drop.
func minus(units, drop []*objUnit) []*objUnit {
	var out []*objUnit
	for _, u := range units {
		if !slices.Contains(drop, u) {
			out = append(out, u)
		}
	}
	return out
}

// joined is the units of every list, in order, as a new slice.
func joined(lists ...[]*objUnit) []*objUnit {
	var out []*objUnit
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}
