package envdiff

import (
	"math"

	"github.com/envbisect/envbisect/envobj"
)

// linkOf is where r's path led in the good run when the recording shows
// it is a symbolic link (a readlink, an lstat) or led elsewhere (a file
// object's Resolved); "" otherwise.
func (c *comparer) linkOf(r *pathRec) string {
	self := fold(r.obs[viewSelf])
	switch {
	case self.st.Exists && self.st.Type == envobj.TypeSymlink && self.st.Known.Has(envobj.AspectTarget):
		return linkTarget(r.path, self.st.Target)
	case self.known():
		return "" // the path itself, not a link
	}
	return r.leadsTo
}

// redirect moves the observations of what r's path led to (its stats,
// opens, listing) to the path it led to, following links up to the
// kernel's limit of 40: they are that object's state.
func (c *comparer) redirect(r *pathRec) {
	to := c.linkOf(r)
	if to == "" || (len(r.obs[viewFollow]) == 0 && !r.listed) {
		return
	}
	for range 40 {
		next := c.recs[to]
		if next == nil {
			break
		}
		n := c.linkOf(next)
		if n == "" || n == to || n == r.path {
			break
		}
		to = n
	}
	t := c.recs[to]
	if t == nil {
		t = &pathRec{path: to}
		c.recs[to] = t
	}
	met := func(seq uint64) {
		if seq != 0 && seq != math.MaxUint64 && (t.first == 0 || seq < t.first) {
			t.first = seq
		}
	}
	for _, o := range r.obs[viewFollow] {
		met(o.seq)
	}
	t.obs[viewFollow] = append(t.obs[viewFollow], r.obs[viewFollow]...)
	r.obs[viewFollow] = nil
	if r.listed && !t.listed {
		t.entries, t.listed, t.listedAt = r.entries, true, r.listedAt
	}
	r.entries, r.listed = nil, false
	t.named = t.named || r.named
}

// compareLeads compares where r's path leads here with where it led in
// the good run (a file object's Resolved): a link retargeted, or one
// missing here. The object is the path as a link to where it led.
func (c *comparer) compareLeads(r *pathRec) {
	p := r.path
	c.counted++
	res, ok, err := c.fs.resolve(p)
	if err != nil {
		c.skip(p, err.Error())
		return
	}
	if ok && res == r.leadsTo {
		return
	}
	h, err := c.fs.lstat(p)
	if err != nil {
		c.skip(p, err.Error())
		return
	}
	d := envobj.Aspects{envobj.AspectExists}
	if h.Exists {
		d = envobj.Aspects{envobj.AspectTarget}
		if ok {
			h.Target = res
			h.Known = ordered(append(h.Known, envobj.AspectTarget))
		}
	}
	c.emit(envobj.Object{
		Path: p,
		Good: envobj.State{Exists: true, Type: envobj.TypeSymlink, Target: r.leadsTo,
			Known: envobj.Aspects{envobj.AspectExists, envobj.AspectTarget}},
		Here: h, Differs: d, FirstSeq: r.first,
	})
}
