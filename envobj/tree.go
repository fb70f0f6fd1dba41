package envobj

import (
	"path"
	"sort"
	"strings"
)

// The directory tree of the objects no package owned (and of a
// package's, and of the modification times'): the levels the object
// search descends.

// node is a directory or object of the path tree tree builds.
type node struct {
	path string
	obj  int // the object at this path, -1 for none
	kids map[string]*node
}

// tree returns the top of the directory tree of objs[idx]: the nodes
// under the objects' nearest common directory. A directory that holds
// one node and is no object is that node (the tree is collapsed), so
// that a group is always a directory where paths branch, or an object.
func tree(objs []Object, idx []int) []*Group {
	if len(idx) == 0 {
		return nil
	}
	root := &node{path: "/", obj: -1}
	for _, i := range idx {
		n := root
		for _, part := range strings.Split(strings.TrimPrefix(path.Clean(objs[i].Path), "/"), "/") {
			if part == "" {
				continue
			}
			if n.kids == nil {
				n.kids = map[string]*node{}
			}
			k, ok := n.kids[part]
			if !ok {
				k = &node{path: path.Join(n.path, part), obj: -1}
				n.kids[part] = k
			}
			n = k
		}
		n.obj = i
	}
	top := group(objs, root)
	if top.Kind == GroupDir && top.Object < 0 {
		return top.Children // the first level: under the common directory
	}
	return []*Group{top}
}

// group turns the tree under n into a Group, collapsing directories that
// hold one node and are no object.
func group(objs []Object, n *node) *Group {
	names := make([]string, 0, len(n.kids))
	for name := range n.kids {
		names = append(names, name)
	}
	sort.Strings(names)
	var kids []*Group
	for _, name := range names {
		kids = append(kids, group(objs, n.kids[name]))
	}
	switch {
	case n.obj >= 0 && len(kids) == 0:
		return &Group{Kind: GroupObject, Path: n.path, Object: n.obj, Objects: []int{n.obj}}
	case n.obj < 0 && len(kids) == 1:
		return kids[0]
	}
	g := &Group{Kind: GroupDir, Path: n.path, Object: n.obj}
	if n.obj >= 0 {
		g.Objects = []int{n.obj}
		kids = append([]*Group{{Kind: GroupObject, Path: n.path, Object: n.obj, Objects: []int{n.obj}}}, kids...)
	}
	for _, k := range kids {
		if k.Object == n.obj && k.Kind == GroupObject {
			continue // itself, listed first
		}
		g.Objects = append(g.Objects, k.Objects...)
	}
	g.Children = kids
	return g
}
