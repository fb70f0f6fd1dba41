package envdiff

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/envbisect/envbisect/envobj"
)

// comparer compares the paths a walk recorded with their state here.
type comparer struct {
	recs map[string]*pathRec
	fs   *rootFS
	opts Options
	left int64 // hash budget left; negative: no hashing

	// values are what the recording read of kernel tunables
	// (tunables.go), by path.
	values map[string]*goodValue

	own     map[string]bool
	objs    []envobj.Object
	emitted map[string]bool
	skipped []Skip
	counted int
	hashed  int64
}

func newComparer(recs map[string]*pathRec, fs *rootFS, opts Options) *comparer {
	return &comparer{recs: recs, fs: fs, opts: opts, left: opts.MaxHash, own: map[string]bool{}, emitted: map[string]bool{}}
}

// whyKernel is Skip.Why of a path of /proc, /sys or /dev.
const whyKernel = "a kernel file system: the good run's state is the kernel's answer, which inspection cannot see"

// compareAll decides the command's own work, moves what was seen through
// a link to where it led, and compares every other path.
func (c *comparer) compareAll() {
	paths := make([]string, 0, len(c.recs))
	for p := range c.recs {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if c.isOwn(c.recs[p]) {
			c.own[p] = true
		}
	}
	for _, p := range paths {
		if !c.own[p] {
			c.redirect(c.recs[p])
		}
	}
	paths = paths[:0] // redirect may have added targets
	for p := range c.recs {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		r := c.recs[p]
		switch {
		case c.own[p] || !r.named || c.ignored(p):
		case kernelPath(p):
			if r.hasObs() && c.values[p] == nil {
				c.skip(p, whyKernel)
			}
		default:
			c.compare(r)
		}
	}
	c.compareTunables()
}

// compare compares r's path: the path itself when the recording saw it
// (an lstat, a readlink), else what it leads to; and, for a path that led
// elsewhere, where it leads here.
func (c *comparer) compare(r *pathRec) {
	self := fold(r.obs[viewSelf])
	switch {
	case self.known() && self.st.Exists && self.st.Type == envobj.TypeSymlink:
		c.compareState(r, self, viewSelf)
	case self.known():
		c.compareState(r, fold(r.obs[viewSelf], r.obs[viewFollow]), viewSelf)
	case len(r.obs[viewFollow]) > 0:
		c.compareState(r, fold(r.obs[viewFollow]), viewFollow)
	}
	if r.leadsTo != "" && !self.known() {
		c.compareLeads(r)
	}
}

// compareState compares the good state g of r's path with its state here
// in view v, with the directory's entries when the recording listed it.
func (c *comparer) compareState(r *pathRec, g good, v view) {
	p := r.path
	c.counted++
	var h envobj.State
	var err error
	if v == viewSelf {
		h, err = c.fs.lstat(p)
	} else {
		h, err = c.fs.stat(p)
	}
	if err != nil {
		c.skip(p, err.Error())
		return
	}
	if g.st.Known.Has(envobj.AspectTarget) && h.Exists && h.Type == envobj.TypeSymlink {
		if h.Target, err = c.fs.readlink(p); err != nil {
			c.skip(p, err.Error())
		} else {
			h.Known = append(h.Known, envobj.AspectTarget)
		}
	}
	listedBoth := false
	if r.listed && g.st.Exists && h.Exists && h.Type == envobj.TypeDir {
		names, err := c.fs.list(p)
		if err != nil {
			c.skip(p, err.Error())
		} else {
			g.st.Entries, h.Entries = c.notOwn(p, r.entries), c.notOwn(p, names)
			g.st.Known = ordered(append(g.st.Known, envobj.AspectEntries))
			h.Known = ordered(append(h.Known, envobj.AspectEntries))
			listedBoth = true
		}
	}
	d := c.differs(p, &g, &h)
	if r.entriesChanged { // the command's own creations changed it
		d = slices.DeleteFunc(d, func(a envobj.Aspect) bool { return a == envobj.AspectMtime })
	}
	if len(d) > 0 {
		o := envobj.Object{Path: p, Good: g.st, Here: h, Differs: d, FirstSeq: r.first}
		if f := g.file; f != nil {
			o.File, o.Stored = f.ID, f.Stored()
		}
		o.Package = g.pkg
		c.emit(o)
	}
	if listedBoth {
		c.extraEntries(r, g.st.Entries, h.Entries)
	}
}

// extraEntries makes an object of each entry of r's directory that is
// here and was not in the good run, unless the recording observed that
// path itself (then it is compared as such).
func (c *comparer) extraEntries(r *pathRec, good, here []string) {
	for _, n := range here {
		if _, found := slices.BinarySearch(good, n); found {
			continue
		}
		q := path.Join(r.path, n)
		if qr := c.recs[q]; qr != nil && qr.hasObs() {
			continue
		}
		h, err := c.fs.lstat(q)
		if err != nil {
			c.skip(q, err.Error())
			continue
		}
		if !h.Exists {
			continue // gone since the listing
		}
		c.counted++
		c.emit(envobj.Object{
			Path: q, Good: envobj.State{Known: envobj.Aspects{envobj.AspectExists}}, Here: h,
			Differs: envobj.Aspects{envobj.AspectExists}, FirstSeq: r.listedAt,
		})
	}
}

// differs are the aspects known on both sides that differ: for a path on
// one side only, AspectExists alone; for one of another type here,
// AspectType alone. A regular file's content differs when its size does,
// or, sizes equal and the good hash known, when its hash here does
// (hashed now, within the budget; h gets it).
func (c *comparer) differs(p string, g *good, h *envobj.State) envobj.Aspects {
	gs := &g.st
	both := func(a envobj.Aspect) bool { return gs.Known.Has(a) && h.Known.Has(a) }
	switch {
	case !both(envobj.AspectExists):
		return nil
	case gs.Exists != h.Exists:
		return envobj.Aspects{envobj.AspectExists}
	case !gs.Exists:
		return nil
	case both(envobj.AspectType) && gs.Type != h.Type:
		return envobj.Aspects{envobj.AspectType}
	}
	t := gs.Type
	if !gs.Known.Has(envobj.AspectType) {
		t = h.Type
	}
	var out envobj.Aspects
	if t == envobj.TypeFile && h.Type == envobj.TypeFile && c.contentDiffers(p, g, h) {
		out = append(out, envobj.AspectContent)
	}
	if t != envobj.TypeSymlink {
		if both(envobj.AspectMode) && gs.Mode != h.Mode {
			out = append(out, envobj.AspectMode)
		}
		if both(envobj.AspectOwner) && (gs.UID != h.UID || gs.GID != h.GID) {
			out = append(out, envobj.AspectOwner)
		}
		if both(envobj.AspectMtime) && gs.MtimeNS != h.MtimeNS {
			out = append(out, envobj.AspectMtime)
		}
	}
	if t == envobj.TypeSymlink && both(envobj.AspectTarget) && gs.Target != h.Target {
		out = append(out, envobj.AspectTarget)
	}
	if t == envobj.TypeDir && both(envobj.AspectEntries) && !slices.Equal(gs.Entries, h.Entries) {
		out = append(out, envobj.AspectEntries)
	}
	return out
}

// contentDiffers compares a regular file's content on both sides: by
// size, then by hash when the good run's is known.
func (c *comparer) contentDiffers(p string, g *good, h *envobj.State) bool {
	if !g.hasSize {
		return false
	}
	if g.st.Size != h.Size {
		return true
	}
	if !g.st.Known.Has(envobj.AspectContent) || c.left < 0 {
		return false
	}
	if h.Size > c.left {
		c.skip(p, fmt.Sprintf("content not compared: hashing it would pass the budget of %d bytes", c.opts.MaxHash))
		return false
	}
	sum, n, err := c.fs.hash(p, h.Size)
	c.left -= n
	c.hashed += n
	if err != nil {
		c.skip(p, "content not compared: "+err.Error())
		return false
	}
	h.SHA256 = sum
	h.Known = ordered(append(h.Known, envobj.AspectContent))
	return sum != g.st.SHA256
}

func (c *comparer) emit(o envobj.Object) {
	if c.emitted[o.Path] {
		return
	}
	c.emitted[o.Path] = true
	c.objs = append(c.objs, o)
}

func (c *comparer) skip(p, why string) { c.skipped = append(c.skipped, Skip{Path: p, Why: why}) }

// diff is what the comparison found.
func (c *comparer) diff() *Diff {
	d := &Diff{Objects: c.objs, Skipped: c.skipped, Compared: c.counted, Hashed: c.hashed}
	slices.SortFunc(d.Objects, func(a, b envobj.Object) int { return strings.Compare(a.Path, b.Path) })
	slices.SortStableFunc(d.Skipped, func(a, b Skip) int { return strings.Compare(a.Path, b.Path) })
	for _, o := range d.Objects {
		if len(o.Differs) == 1 && o.Differs[0] == envobj.AspectMtime {
			d.MtimeOnly = append(d.MtimeOnly, o.Path)
		}
	}
	for p := range c.own {
		if !kernelPath(p) && c.recs[p].named {
			d.Own = append(d.Own, p)
		}
	}
	slices.Sort(d.Own)
	written := map[string]bool{}
	for p, r := range c.recs {
		if r.changed != 0 && r.named && !kernelPath(p) {
			written[path.Dir(p)] = true
		}
	}
	for p := range written {
		d.Written = append(d.Written, p)
	}
	slices.Sort(d.Written)
	return d
}
