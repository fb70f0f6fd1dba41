package bisect

import (
	"maps"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
)

// The first differing call of a resource. The search ends at the unit
// whose replay flips the verdict: a resource over what differs, a call
// (with every call before it) over every call. That flip is often a
// consequence of what differs (a stat that re-checks a file whose
// content differs, the unlink of a file whose creation failed): the
// culprit named is the first call of the flip's resource whose live
// result differs from the recorded one (named: reads before metadata),
// and the flip is kept in the report as the evidence (Culprit.Flip).
// Nothing is re-run: the live results are those the failing run next to
// the flip observed, and, for calls that run replayed (over every call,
// the calls before the flip), those of the fail end, where every call
// ran live.

// seenToDiffer reports whether a call of gr that ran in the run whose
// live results are live answered otherwise than recorded.
func (s *search) seenToDiffer(gr *depgraph.Group, live map[uint64]*trace.Call) bool {
	for _, q := range gr.Calls {
		rec, ok := s.g.Call(q)
		if l := live[q]; ok && l != nil && s.obs.differs(rec, l) {
			return true
		}
	}
	return false
}

// observedLive is what the failing run next to the flip observed (atLo),
// and for the calls it did not run live (it replayed them), what the
// fail end observed.
func (s *search) observedLive(atLo map[uint64]*trace.Call) map[uint64]*trace.Call {
	if len(s.failLive) == 0 {
		return atLo
	}
	out := maps.Clone(s.failLive)
	maps.Copy(out, atLo)
	return out
}

// firstDiffering returns the call a report names for the flip call z of
// the search over every call, and whether it is the first differing
// call of z's resource (false: none of its calls was seen to differ,
// and z is named itself).
func (s *search) firstDiffering(z uint64, live map[uint64]*trace.Call) (uint64, bool) {
	gr := s.g.GroupOf(z)
	if gr == nil || !s.seenToDiffer(gr, live) {
		return z, false
	}
	return s.named(gr, live, s.obs), true
}

// callFlip is the flip call z of the search over every call, as the
// report keeps it.
func (s *search) callFlip(z uint64, first bool) *render.Flip {
	f := &render.Flip{Unit: render.FlipCall, Seq: z, FirstDiffers: first}
	if c, ok := s.g.Call(z); ok {
		rows := s.rows()
		f.Syscall, f.Call = rows.ByNr(int(c.Nr)).Name, callString(rows, c)
	}
	if gr := s.g.GroupOf(z); gr != nil {
		f.Resource, f.Calls = gr.Title(), len(gr.Calls)
	}
	return f
}

// resourceFlip is the flip resource gr of the search over what differs,
// as the report keeps it; live are the results of the failing run next
// to it.
func (s *search) resourceFlip(gr *depgraph.Group, live map[uint64]*trace.Call) *render.Flip {
	return &render.Flip{Unit: render.FlipResource, Resource: gr.Title(), Calls: len(gr.Calls), FirstDiffers: s.seenToDiffer(gr, live)}
}

// differsKind says how cu's resource differs here, as cu shows it
// (render.Differs*); "" when cu answered as recorded.
func (s *search) differsKind(cu *Culprit) string {
	switch {
	case cu.Start != nil:
		return ""
	case cu.DNS != nil:
		return render.DiffersAnswer
	case cu.Here.Missing:
		return render.DiffersMissing
	case cu.Good.Errno != cu.Here.Errno:
		return render.DiffersErrno
	case cu.Content != nil:
		return render.DiffersContent
	case cu.DataDiff != nil && s.readsFileData(cu.Seq):
		return render.DiffersContent
	case cu.DataDiff != nil && s.isMetadata(cu.Seq):
		return render.DiffersMetadata
	case cu.DataDiff != nil:
		return render.DiffersData
	case cu.Good.Return != cu.Here.Return:
		return render.DiffersResult
	}
	return ""
}

// isMetadata reports whether call seq's row is a metadata call (stat,
// access, readlink: systable's Metadata column).
func (s *search) isMetadata(seq uint64) bool {
	c, ok := s.g.Call(seq)
	return ok && s.rows().ByNr(int(c.Nr)).Metadata
}
