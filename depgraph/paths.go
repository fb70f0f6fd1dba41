package depgraph

import (
	"path"
	"slices"
	"strings"

	"github.com/envbisect/envbisect/systable"
)

// pathNode is what the tracker knows of one absolute path.
type pathNode struct {
	res *Resource
	// def is the last call that created, removed, renamed or modified the
	// path (O_CREAT, O_TRUNC, write through an fd opened on it, chmod,
	// mkdir, unlink, rename, mount).
	def uint64
	// entries is the last call that created or removed a name directly
	// in it: what getdents on the directory reads.
	entries   uint64
	dir, fifo bool
}

// pathNode returns the node of p, making it.
func (b *builder) pathNode(p string) *pathNode {
	n, ok := b.paths[p]
	if !ok {
		n = &pathNode{res: b.newResource(Path, p, 0)}
		n.res.Path, n.res.Class = p, Environment
		b.paths[p] = n
	}
	return n
}

// usePaths adds the edges of the paths the call names. The recorder has
// resolved them (Call.Path, Call.Path2, in argument order); a relative one
// also depends on the working directory, or on its dirfd (useFDs).
func (b *builder) usePaths(x *callCtx) {
	row, c := x.row, x.c
	names := [2]string{c.Path, c.Path2}
	k, dirfd := 0, -1
	for i, a := range row.Args {
		if a.Kind == systable.DirFD {
			dirfd = i
			continue
		}
		if a.Kind != systable.Path {
			continue
		}
		if k == len(names) {
			break
		}
		name, base, form := names[k], dirfd, pathArgForm(c, i)
		k, dirfd = k+1, -1
		if !strings.HasPrefix(name, "/") || form == formEmpty && base >= 0 {
			continue // not captured or not resolved; or the call acts on its dirfd (useFDs)
		}
		if form == formRelative && (base < 0 || fdArg(c, base) == atFDCWD) {
			b.dep(x, x.p.fs.def, ByCwd, x.p.fs.res)
		}
		b.pathDeps(x, name)
		x.names = append(x.names, name)
		x.acts(b.pathNode(name).res)
	}
	if b.renames(x) {
		for _, p := range b.subtree(x.names[0]) {
			n := b.paths[p]
			b.dep(x, n.def, ByContent, n.res)
		}
	}
}

// pathDeps adds the edges of naming p: to the last definition of p, of
// its entries, and of every directory above it (a mkdir under which the
// call creates a file, a rename of a parent, a chmod of one).
func (b *builder) pathDeps(x *callCtx, p string) {
	if n := b.paths[p]; n != nil {
		b.dep(x, n.entries, ByContent, n.res)
	}
	for a := p; ; a = path.Dir(a) {
		if n := b.paths[a]; n != nil {
			b.dep(x, n.def, ByContent, n.res)
		}
		if a == "/" || a == "." {
			return
		}
	}
}

// renames reports whether the call moves its first path to its second.
func (b *builder) renames(x *callCtx) bool {
	return len(x.names) == 2 && x.eff&systable.RemovesPath != 0 && x.eff&systable.CreatesPath != 0
}

// subtree returns the known paths below dir, sorted.
func (b *builder) subtree(dir string) []string {
	prefix := dir + "/"
	var out []string
	for p, n := range b.paths {
		if strings.HasPrefix(p, prefix) && (n.def != 0 || n.entries != 0) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// definePaths applies what a successful call does to the paths it names.
// Following the table's convention, a call naming two paths removes the
// first (rename) and creates the second (rename, link); a call naming one
// creates, removes or modifies it.
func (b *builder) definePaths(x *callCtx) {
	if len(x.names) == 0 {
		return
	}
	row, c, eff := x.row, x.c, x.eff
	if row.Effects&systable.ActsOnDirectory != 0 || row.RemovesDirectory(c.Args) {
		b.pathNode(x.names[0]).dir = true
	}
	if row.MakesFIFO(c.Args) {
		b.pathNode(x.names[0]).fifo = true
	}
	create, remove := eff&systable.CreatesPath != 0, eff&systable.RemovesPath != 0
	modify := eff&(systable.ModifiesFile|systable.ChangesMounts) != 0
	npath := 0
	for _, a := range row.Args {
		if a.Kind == systable.Path {
			npath++
		}
	}
	switch {
	case npath >= 2 && len(x.names) == 2:
		src, dst := x.names[0], x.names[1]
		if b.renames(x) {
			b.move(x.seq, src, dst)
		}
		if remove {
			b.definePath(x.seq, src, true)
			x.keepEffect(src)
		}
		if create {
			b.definePath(x.seq, dst, true)
			x.keepEffect(dst)
		}
	case npath == 1 && (create || remove || modify):
		b.definePath(x.seq, x.names[0], create || remove)
		x.keepEffect(x.names[0])
	}
}

// definePath makes call seq the last definition of p, and with entry
// also of the entries of p's directory.
func (b *builder) definePath(seq uint64, p string, entry bool) {
	b.pathNode(p).def = seq
	if dir := path.Dir(p); entry && dir != p {
		b.pathNode(dir).entries = seq
	}
}

// move carries what is known of src and the paths below it to dst: a
// file later read under its new name depends on the writes made under
// the old one. The paths below src are gone, defined by the rename.
func (b *builder) move(seq uint64, src, dst string) {
	if n := b.paths[src]; n != nil {
		m := b.pathNode(dst)
		m.dir, m.fifo, m.entries = n.dir, n.fifo, n.entries
	}
	for _, p := range b.subtree(src) {
		n := b.paths[p]
		m := b.pathNode(dst + p[len(src):])
		m.def, m.entries, m.dir, m.fifo = n.def, n.entries, n.dir, n.fifo
		n.def = seq
	}
}
