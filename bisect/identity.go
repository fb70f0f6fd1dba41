package bisect

import (
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/systable"
)

// explainIdentity puts the identity items no run could apply
// (Options.Unapplied) into the report, and names the one that explains
// the culprit's error here, with the call as evidence.
func (s *search) explainIdentity(rep *Report) {
	if len(s.o.Unapplied) == 0 {
		return
	}
	rep.Unapplied = s.o.Unapplied
	c := rep.Culprit
	if c == nil || c.Start != nil {
		return
	}
	var f render.CallFacts
	if call, ok := s.g.Call(c.Seq); ok {
		if row := s.rows().ByNr(int(call.Nr)); row != nil {
			f.Capabilities = row.Capabilities()
			f.Execs = row.Effects&systable.ExecsImage != 0
		}
	}
	c.Cause = render.ExplainCulprit(c, rep.Unapplied, f)
}
