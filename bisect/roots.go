package bisect

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
)

// One root for many calls (render/locate_roots.go). The causes the
// search named are grouped by the item of the process's identity that
// explains each one's error here (render.ExplainCulprit: a seccomp
// filter, a capability of a set, a mount's flag; render.RootKey keys
// them); each group is one root. Its evidence is every call of the run
// here with nothing replayed (the command as it runs here; else the run
// that ended the search) whose error the same item explains, counted,
// with the programs that made them: a read-only mount refuses the
// creates of touch, mkdir and cp, which the search names as three
// causes, and the report names the mount once, met by three programs.

// groupRoots sets rep.Roots from explained, the cause each of rep's
// causes has (nil: none), and says in rep.Message when one root
// explains several causes.
func (s *search) groupRoots(rep *Report, explained []*render.Cause) {
	byKey := map[string]int{}
	var roots []render.Root
	var keys []string
	for i, cs := range explained {
		if cs == nil {
			continue
		}
		key, kind, says := render.RootKey(cs)
		if key == "" {
			continue
		}
		j, ok := byKey[key]
		if !ok {
			j = len(roots)
			byKey[key] = j
			roots = append(roots, render.Root{Kind: kind, Says: says, Item: cs.Item})
			keys = append(keys, key)
		}
		roots[j].Causes = append(roots[j].Causes, i)
	}
	if len(roots) == 0 {
		return
	}
	live, run := s.failLive, render.CauseRunNothing
	if live == nil {
		live, run = s.failedLive, render.CauseRunEverything
	}
	denied := make([][]string, len(roots))
	for _, e := range s.rootEvidence(live, rep.Unapplied) {
		j, ok := byKey[e.key]
		if !ok {
			continue
		}
		rt := &roots[j]
		if rt.Calls == 0 {
			rt.First = e.call
		}
		rt.Calls++
		rt.Run = run
		if !slices.Contains(rt.Programs, e.call.Program) {
			rt.Programs = append(rt.Programs, e.call.Program)
		}
		if len(rt.Evidence) < render.RootEvidenceListed {
			rt.Evidence = append(rt.Evidence, e.call)
		}
		if !slices.Contains(denied[j], e.syscall) {
			denied[j] = append(denied[j], e.syscall)
		}
	}
	for j := range roots {
		rt := &roots[j]
		if rt.Calls == 0 {
			// No run here showed the calls (the search ended without
			// one): the causes themselves are the evidence.
			s.causesAsEvidence(rt, rep.Causes, denied, j)
		}
		if rt.Kind == render.RootSeccomp {
			rt.Says += " denies " + strings.Join(denied[j], ", ")
		}
	}
	sort.SliceStable(roots, func(a, b int) bool { return roots[a].First.Seq < roots[b].First.Seq })
	rep.Roots = roots
	if len(rep.Causes) > 1 && len(roots) == 1 && len(roots[0].Causes) == len(rep.Causes) {
		rep.Message = fmt.Sprintf("one root: %s (%s); the %d causes below are the calls that met it first, each needed; %s",
			roots[0].Says, render.RootCount(&roots[0]), len(rep.Causes), rep.Message)
	}
}

// causesAsEvidence makes the causes of rt its evidence, for a root no
// run's live calls showed.
func (s *search) causesAsEvidence(rt *render.Root, causes []*Culprit, denied [][]string, j int) {
	for _, i := range rt.Causes {
		c := causes[i]
		e := render.RootCall{Seq: c.Seq, Who: c.Who, Program: c.Exe, Call: cmp.Or(c.Here.Call, c.Call), Here: c.Here.Return}
		if rt.Calls == 0 {
			rt.First = e
		}
		rt.Calls++
		rt.Evidence = append(rt.Evidence, e)
		if !slices.Contains(rt.Programs, c.Exe) {
			rt.Programs = append(rt.Programs, c.Exe)
		}
		if !slices.Contains(denied[j], c.Syscall) {
			denied[j] = append(denied[j], c.Syscall)
		}
	}
}

// rootCall is one live call whose error an unapplied item explains,
// keyed by its root (render.RootKey).
type rootCall struct {
	key     string
	syscall string
	call    render.RootCall
}

// rootEvidence returns the calls of live (by recorded seq) that failed
// here with an error an item of unapplied explains, in the order made,
// each keyed by its root and named with its caller and program.
func (s *search) rootEvidence(live map[uint64]*trace.Call, unapplied []render.StartItem) []rootCall {
	if len(live) == 0 || s.g == nil {
		return nil
	}
	seqs := make([]uint64, 0, len(live))
	for q, l := range live {
		if l.Errno() != 0 {
			seqs = append(seqs, q)
		}
	}
	slices.Sort(seqs)
	rows := s.rows()
	var out []rootCall
	for _, q := range seqs {
		l := live[q]
		rec, ok := s.g.Call(q)
		if !ok {
			continue
		}
		row := rows.ByNr(int(rec.Nr))
		if row == nil {
			continue
		}
		fc := render.FailedCall{Seq: q, Syscall: row.Name, Path: rec.Path, Call: callString(rows, l),
			Errno: errnoName(l.Errno()), Denied: l.Denied, GoodErrno: errnoName(rec.Errno()), GoodDenied: rec.Denied}
		cs := render.ExplainCall(fc, unapplied, s.facts(q))
		if cs == nil {
			continue
		}
		key, _, _ := render.RootKey(cs)
		if key == "" {
			continue
		}
		out = append(out, rootCall{key: key, syscall: row.Name,
			call: render.RootCall{Seq: q, Call: callString(rows, l), Here: result(rows, l).Return}})
	}
	s.name(out)
	return out
}

// name fills in the caller and program of each call of calls (in seq
// order), from the trace's process events, in one pass (caller does the
// same for one call).
func (s *search) name(calls []rootCall) {
	if len(calls) == 0 {
		return
	}
	ps := newProcNames()
	i := 0
	s.o.eachEvent(func(ev *trace.Event) bool {
		if ev.Call != nil {
			for i < len(calls) && calls[i].call.Seq <= ev.Call.Seq {
				if calls[i].call.Seq == ev.Call.Seq {
					calls[i].call.Who, calls[i].call.Program = ps.of(ev.Call)
				}
				i++
			}
			return i < len(calls)
		}
		ps.see(ev.Proc)
		return true
	})
}

// metBy counts the recorded calls that met object cause c (causeCalls,
// every one: a package's files, a directory's entries), with the
// process that met it first and the programs that did; nil for a cause
// no recorded call met.
func (s *search) metBy(c *envobj.ResultCause) *envobj.Met {
	if s.g == nil {
		return nil
	}
	seqs := causeCalls(s.g, c, s.g.NumCalls())
	if len(seqs) == 0 {
		return nil
	}
	calls := make([]rootCall, len(seqs))
	for i, q := range seqs {
		calls[i].call.Seq = q
	}
	s.name(calls)
	m := &envobj.Met{Who: calls[0].call.Who, Program: calls[0].call.Program, Calls: len(calls)}
	for _, c := range calls {
		if !slices.Contains(m.Programs, c.call.Program) {
			m.Programs = append(m.Programs, c.call.Program)
		}
	}
	return m
}
