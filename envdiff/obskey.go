package envdiff

import (
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/trace"
)

// obsKey is what an observation says, all but the call it is from: two
// observations of a path in one view with the same key give the same
// aspects, and fold takes the earlier's. A loop of a million calls on one
// file holds one observation of each kind, not a million.
type obsKey struct {
	exists         bool
	typ            envobj.Type
	mode, uid, gid uint32
	size, mtime    int64
	sha            trace.Hash
	target         string
	known          uint16 // a bit per aspect, in aspectOrder
	hasSize        bool
	file           *trace.FileObject
	pkg            *trace.Package
}

// keyOf is o's key; ok is false for an observation that has none (one
// with a directory's entries, which no call's observation has).
func keyOf(o *obs) (k obsKey, ok bool) {
	if o.st.Entries != nil {
		return obsKey{}, false
	}
	k = obsKey{exists: o.st.Exists, typ: o.st.Type, mode: o.st.Mode, uid: o.st.UID, gid: o.st.GID, size: o.st.Size,
		mtime: o.st.MtimeNS, sha: o.st.SHA256, target: o.st.Target, hasSize: o.hasSize, file: o.file, pkg: o.pkg}
	for i, a := range aspectOrder {
		if o.st.Known.Has(a) {
			k.known |= 1 << i
		}
	}
	return k, true
}

// indexFrom is how many observations a view holds before add indexes
// them by key instead of comparing with each.
const indexFrom = 8

// add adds observation o of view v, unless the view holds one that says
// the same from the same call or an earlier one: fold, which takes each
// aspect from the earliest observation that gives it, would never take
// o's, nor would untimely, which asks whether any stat gave a size.
func (r *pathRec) add(v view, o obs) {
	k, ok := keyOf(&o)
	if ok {
		if idx := r.seen[v]; idx != nil {
			if s, found := idx[k]; found && s <= o.seq {
				return
			}
		} else {
			for i := range r.obs[v] {
				if e := &r.obs[v][i]; e.seq <= o.seq {
					if ek, eok := keyOf(e); eok && ek == k {
						return
					}
				}
			}
		}
	}
	r.obs[v] = append(r.obs[v], o)
	if r.seen[v] == nil && len(r.obs[v]) > indexFrom {
		r.seen[v] = map[obsKey]uint64{}
		for i := range r.obs[v] {
			if ek, eok := keyOf(&r.obs[v][i]); eok {
				if s, found := r.seen[v][ek]; !found || r.obs[v][i].seq < s {
					r.seen[v][ek] = r.obs[v][i].seq
				}
			}
		}
		return
	}
	if idx := r.seen[v]; idx != nil && ok {
		if s, found := idx[k]; !found || o.seq < s {
			idx[k] = o.seq
		}
	}
}
