package bisect

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
)

// The object search names objects; a reader of locate's report also
// wants, as the call-level search gives it, the call where the program
// first met each cause, what it gave in the good run and what it gives
// here, and why (the explanation). DescribeObjects makes that report
// from the object search's located result and one traced run here with
// nothing replayed (live: its live calls by recorded seq; the caller
// may have ended it once the causes' first calls ran, replay's
// Options.ObserveOnly). The causes and the verdicts stay the object
// search's: no call-level run decided anything.

// DescribeObjects returns locate's report of res, a located object
// search, with each cause described at its first call (Culprit is
// Causes[0]). g is the trace's dependency graph; o carries what the
// call-level report is made with (Header, Events, Start, the lookups
// here). g nil describes the start items only (no cause met a call).
func DescribeObjects(g *depgraph.Graph, res *ObjectReport, live map[uint64]*trace.Call, o Options) *Report {
	rep := MaterializedReport(res, o.Command)
	if res.Status != envobj.Located {
		return rep
	}
	s := &search{o: o, start: len(o.Start)}
	if g != nil {
		s = &search{g: g, o: o, cands: Candidates(g), start: len(o.Start), ends: map[string]decided{}, memo: map[string]decided{}}
		s.sp = s.everyCall("")
		s.obs = s.newObserver()
		s.failLive = live
	}
	for i := range res.Causes {
		cu, gr := s.objectCulprit(&res.Causes[i], live)
		if cu == nil {
			continue
		}
		res.Causes[i].Observed = observedOf(cu)
		res.Causes[i].Observed.Met = s.metBy(&res.Causes[i])
		if len(rep.Causes) == 0 {
			rep.Culprit, rep.Group = cu, gr
		}
		rep.Causes = append(rep.Causes, cu)
	}
	if o.Lost.Any() {
		rep.Lost = o.Lost
	}
	rep.Isolation = o.Isolation
	rep.Space = &render.SearchSpace{Over: render.SpaceObjects, Candidates: res.Candidates}
	for _, it := range o.Start {
		rep.Space.StartItems = append(rep.Space.StartItems, it.Label())
	}
	if g != nil {
		rep.RecordedCalls = g.NumCalls()
		s.explainIdentity(rep)
	} else if len(o.Unapplied) > 0 {
		rep.Unapplied = o.Unapplied
	}
	return rep
}

// objectCulprit describes cause c: a start item as the call-level
// search names one; an object at the call of its resource the program
// met first that tells it apart here (search.named), with the recorded
// and live results and the explanation; nil for an object no recorded
// call met. An explanation the facts cannot give is the object search's
// own sentence (c.Says): a cause is never left unexplained.
func (s *search) objectCulprit(c *envobj.ResultCause, live map[uint64]*trace.Call) (*Culprit, *Group) {
	if c.Start != nil && (c.MetAt() == 0 || s.g == nil) {
		it := s.startItemOf(*c.Start)
		cu := &Culprit{Start: &it}
		s.explain(cu, nil)
		if cu.Explanation == "" {
			cu.Explanation = c.Says
		}
		return cu, nil
	}
	if c.MetAt() == 0 || s.g == nil {
		return nil, nil
	}
	seq := c.MetAt()
	if q := s.refusedAt(c, live); q != 0 {
		seq = q
	} else if q := s.usesContent(c); q != 0 {
		seq = q
	} else if gr := s.g.GroupOf(seq); gr != nil {
		if q := s.named(gr, live, s.obs); q != 0 {
			seq = q
		}
	}
	cu, gr := s.culprit(seq, live)
	if shadowed := s.shadowedProgram(c); shadowed != "" {
		cu.Explanation = render.HidesSentence(render.ProgramLookup{Name: path.Base(c.Path), Here: c.Path, Good: shadowed})
	}
	if cu.Here.Missing && c.Says != "" {
		// An earlier cause ended the run here, or sent it elsewhere,
		// before it met this one: what the object search saw of it is
		// what there is to say.
		cu.Explanation = fmt.Sprintf("%s. The run here took another path before it reached call %d, where the good "+
			"run met it; putting it in place as in the good run is what showed it a cause.", render.Upper(c.Says), cu.Seq)
	}
	if cu.Explanation == "" {
		cu.Explanation = c.Says
	}
	return cu, gr
}

// shadowedProgram is, for a cause that is one file (or link) that
// exists only here, the program of the same name the good run ran from
// another path after it looked for this one (ranInstead): the program
// this file hides here, as one earlier on PATH does. "" when there is
// none.
func (s *search) shadowedProgram(c *envobj.ResultCause) string {
	if len(c.Objects) != 1 || c.Path == "" {
		return ""
	}
	o := c.Objects[0]
	if o.Good.Exists || !o.Here.Exists || o.Here.Type != envobj.TypeFile && o.Here.Type != envobj.TypeSymlink {
		return ""
	}
	return s.ranInstead(c.Path, c.FirstSeq)
}

// ranInstead is the program the good run ran, by an exec of an image
// (systable's ServesImage) from call seq on, that has p's name and
// another path: where a lookup along PATH that found nothing at p led
// in the good run. "" when no such exec succeeded.
func (s *search) ranInstead(p string, seq uint64) string {
	name := path.Base(p)
	for call := range s.g.AllCalls() {
		if call.Seq < seq || call.Path == "" || call.Path == p || path.Base(call.Path) != name || call.Errno() != 0 || call.NoReturn {
			continue
		}
		if row := s.rows().ByNr(int(call.Nr)); row != nil && row.ServesImage {
			return call.Path
		}
	}
	return ""
}

// refusedAt is the first call on cause c (causeCalls) that failed here
// with another error than in the good run (a creation denied in a
// directory whose mode differs, an open of a file missing here): the
// call where the program was refused names the cause better than its
// first look at it (a stat of the directory). 0: none was.
//
// Of those, one that would have taken the cause's content (an open of a
// file the trace keeps, an exec of an image) comes first: the exec of a
// program missing here, not the stat along PATH that looked for it.
func (s *search) refusedAt(c *envobj.ResultCause, live map[uint64]*trace.Call) uint64 {
	first := uint64(0)
	for _, q := range causeCalls(s.g, c, observedCalls) {
		l := live[q]
		rec, ok := s.g.Call(q)
		if l == nil || !ok {
			continue
		}
		if e := l.Errno(); e != 0 && e != rec.Errno() {
			if rec.Obj != 0 {
				return q
			}
			if first == 0 {
				first = q
			}
		}
	}
	return first
}

// usesContent is, for a cause whose content differs, the first call on
// it that took that content (an open of a file the trace keeps, whose
// read shows the data diff; an exec of an image it keeps): a stat
// along PATH meets the file first, but the program read or ran it
// there. 0: none, or the content does not differ.
func (s *search) usesContent(c *envobj.ResultCause) uint64 {
	content := false
	for _, o := range c.Objects {
		content = content || o.Differs.Has(envobj.AspectContent)
	}
	if !content {
		return 0
	}
	for _, q := range causeCalls(s.g, c, observedCalls) {
		if rec, ok := s.g.Call(q); ok && rec.Obj != 0 {
			return q
		}
	}
	return 0
}

// observedCalls is how many calls on each cause a traced run here waits
// for (ObservedCalls): the first names the cause, the next ones show its
// content (the read after an open) or the call refused here.
const observedCalls = 8

// ObservedCalls are the recorded calls on res's causes a traced run here
// with nothing in place must have made to describe them
// (DescribeObjects): for each cause, the first observedCalls of
// causeCalls, in order.
func ObservedCalls(g *depgraph.Graph, res *ObjectReport) []uint64 {
	var out []uint64
	seen := map[uint64]bool{}
	for i := range res.Causes {
		for _, q := range causeCalls(g, &res.Causes[i], observedCalls) {
			if !seen[q] {
				seen[q] = true
				out = append(out, q)
			}
		}
	}
	slices.Sort(out)
	return out
}

// causeCalls are the recorded calls on cause c, in order, at most n: the
// calls on its resource where the program first met it, and those on
// its objects' paths or under a directory among them.
func causeCalls(g *depgraph.Graph, c *envobj.ResultCause, n int) []uint64 {
	first := c.MetAt()
	if first == 0 || g == nil {
		return nil
	}
	paths := map[string]bool{}
	var dirs []string
	for _, o := range c.Objects {
		paths[o.Path] = true
		if o.Good.Type == envobj.TypeDir || o.Here.Type == envobj.TypeDir {
			dirs = append(dirs, strings.TrimSuffix(o.Path, "/")+"/")
		}
	}
	if c.Path != "" {
		paths[c.Path] = true
	}
	in := map[uint64]bool{}
	if gr := g.GroupOf(first); gr != nil {
		for _, q := range gr.Calls {
			in[q] = true
		}
	}
	var out []uint64
	for call := range g.AllCalls() {
		if len(out) == n {
			break
		}
		if call.Seq < first {
			continue
		}
		on := in[call.Seq] || paths[call.Path]
		for _, d := range dirs {
			on = on || strings.HasPrefix(call.Path, d)
		}
		if on {
			out = append(out, call.Seq)
		}
	}
	return out
}

// observedOf is culprit cu as the object search's cause carries it.
func observedOf(cu *Culprit) *envobj.Observed {
	o := &envobj.Observed{Explanation: cu.Explanation}
	if cu.Start != nil {
		if t := cu.Start.Text; t != "" {
			// The kind's own sentence, as the call-level report says it:
			// "The working directory differs: good /src/a, here /src/b."
			o.Explanation = strings.ToUpper(t[:1]) + t[1:] + "."
		}
		return o
	}
	o.Seq, o.Call, o.Good, o.Here = cu.Seq, cu.Call, cu.Good.Return, cu.Here.Return
	if cu.Here.Missing {
		o.Here = "did not happen here"
	}
	return o
}

// startItemOf is the search's start item for v, the object search's,
// or one made of v when the call-level search has none (the host name,
// which only a run of the object search puts in place).
func (s *search) startItemOf(v envobj.StartValue) StartItem {
	for _, it := range s.o.Start {
		if it.Kind == v.Kind && it.Name == v.Name {
			return it
		}
	}
	it := StartItem{Kind: v.Kind, Name: v.Name, Good: v.Good, Here: v.Here}
	it.Text = it.Plain()
	return it
}
