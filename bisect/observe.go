package bisect

import (
	"bytes"
	"cmp"
	"sort"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// What differs here. A run that executes a recorded call observes this
// environment's answer to it (Outcome.Live); compared with the recorded
// answer, after normalising what differs between any two runs (align's
// Comparer: addresses, fd numbers, pids, times, inode numbers), it tells
// which resources differ here. The directory listings are compared in
// order: a program that keeps the order (an archiver) sees another
// order as another answer.

// observer compares recorded calls with their live results.
type observer struct {
	g     *depgraph.Graph
	cmp   *align.Comparer
	cands map[depgraph.GroupID]bool // environment groups with a call the search can replay
}

// newObserver makes the observer of a search. The live run's paths under
// its working directory are compared as if under the recorded one (the
// "cwd" start item, when it differs).
func (s *search) newObserver() *observer {
	arch, recCwd, liveCwd := "", "", ""
	if s.o.Header != nil {
		arch, recCwd = s.o.Header.Arch, s.o.Header.Cwd
	}
	for _, it := range s.o.Start {
		if it.Kind == string(trace.StartCwd) && it.Good != nil && it.Here != nil {
			recCwd, liveCwd = *it.Good, *it.Here
		}
	}
	tab := s.g.Table()
	o := &observer{g: s.g, cands: map[depgraph.GroupID]bool{},
		cmp: align.NewReplayComparer(tab, arch, align.NewKeyer(tab, liveCwd, recCwd), align.Options{ListingOrder: true, Echo: s.g.EchoOf})}
	for _, seq := range s.cands {
		// The command's input (a connection a server accepts from an
		// outside client) differs as a consequence: the client says
		// other things once the server answered otherwise.
		if gr := s.g.GroupOf(seq); gr != nil && gr.Class == depgraph.Environment {
			o.cands[gr.ID] = true
		}
	}
	return o
}

// differs reports whether recorded call rec was answered otherwise live:
// its return value or errno, or the memory the kernel wrote. What the
// program sent (a write's bytes) is its own doing, a consequence of
// what it saw before, not an answer of this environment: the artifact
// a build writes differs because something else does, and so does the
// count a write of other bytes returns.
func (o *observer) differs(rec, live *trace.Call) bool {
	d := o.cmp.Compare(rec, live)
	switch {
	case d == nil || !d.Ret && len(d.Data) == 0:
		return false
	case d.Ret && len(d.Data) == 0 && len(d.Sent) > 0 && rec.Errno() == 0 && live.Errno() == 0:
		// A write of another length took another count: the program's
		// doing too (a shorter reply), not the environment's answer.
		return false
	}
	return true
}

// differing returns the groups the search can replay in which a call
// that ran live gave another answer than recorded, in the order of their
// first call, leaving out those in known; first maps each to its first
// differing call.
func (o *observer) differing(live map[uint64]*trace.Call, known map[depgraph.GroupID]bool) ([]*depgraph.Group, map[depgraph.GroupID]uint64) {
	first := map[depgraph.GroupID]uint64{}
	seqs := make([]uint64, 0, len(live))
	for seq := range live {
		seqs = append(seqs, seq)
	}
	sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
	var out []*depgraph.Group
	for _, seq := range seqs {
		gr := o.g.GroupOf(seq)
		if gr == nil || !o.cands[gr.ID] || known[gr.ID] {
			continue
		}
		if _, seen := first[gr.ID]; seen {
			continue
		}
		rec, ok := o.g.Call(seq)
		if !ok || !o.differs(rec, live[seq]) {
			continue
		}
		first[gr.ID] = seq
		out = append(out, gr)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Calls[0] < out[j].Calls[0] })
	return out, first
}

// unobserved returns the groups the search can replay, not in known, of
// which no call ran in the run whose live results are live (it never
// reached them), in the order of their first call.
func (o *observer) unobserved(live map[uint64]*trace.Call, known map[depgraph.GroupID]bool) []*depgraph.Group {
	var out []*depgraph.Group
	for _, gr := range o.g.Groups() {
		if !o.cands[gr.ID] || known[gr.ID] {
			continue
		}
		reached := false
		for _, seq := range gr.Calls {
			if live[seq] != nil {
				reached = true
				break
			}
		}
		if !reached {
			out = append(out, gr)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Calls[0] < out[j].Calls[0] })
	return out
}

// named is the call of group gr that a report names as the culprit, from
// the live results of the failing run next to it. What the program
// reads from the resource (an open's result, a file's bytes, a
// directory's entries, an exec) is named before its metadata (stat,
// access, readlink), so that a file whose content differs is named by
// its open or read, never by a stat that shows its other size:
//
//  1. the first call that reads the resource and answered otherwise
//     here; a read of a file the trace keeps is named by the open it
//     reads through, which the report shows with the read as evidence;
//  2. when only metadata differs, an open of a file the trace keeps
//     that ran here (the file differs: a replay serves the good one);
//  3. a metadata call that failed here with another error than in the
//     recording (the stat of a tool the shell finds missing: ENOENT);
//  4. a call that reads the resource and did not happen here (an exec
//     the program never made);
//  5. the first metadata call that differs; the first call the run
//     did not make ("did not happen in this environment"); the first.
//
// A DNS exchange is named by the call that received the answer that
// differs here (dnsAnswers), not by one that only shows its size (an
// ioctl FIONREAD before the recvfrom).
func (s *search) named(gr *depgraph.Group, live map[uint64]*trace.Call, o *observer) uint64 {
	if d, differs := s.dnsAnswers(gr, live); differs {
		return d.Seq // a DNS exchange: the call that received the answer that differs
	}
	var meta, metaErr, missing, missingRead, keptOpen uint64
	for _, seq := range gr.Calls {
		rec, ok := s.g.Call(seq)
		if !ok {
			continue
		}
		reads := s.readsResource(rec)
		l := live[seq]
		switch {
		case l == nil:
			missing = cmp.Or(missing, seq)
			if reads {
				missingRead = cmp.Or(missingRead, seq)
			}
		case !o.differs(rec, l):
			if rec.Obj != 0 && s.rows().ByNr(int(rec.Nr)).Ret == systable.FD {
				keptOpen = cmp.Or(keptOpen, seq)
			}
		case !reads:
			meta = cmp.Or(meta, seq)
			if e := l.Errno(); e != 0 && e != rec.Errno() {
				metaErr = cmp.Or(metaErr, seq) // the object is missing or denied here
			}
		default:
			if s.readsFileData(seq) {
				if op := s.openOf(gr, seq, live, o); op != 0 {
					return op
				}
			}
			return seq
		}
	}
	if meta != 0 && keptOpen != 0 {
		return keptOpen
	}
	// A metadata call that fails here (a stat's ENOENT) says what is
	// wrong before the calls that then did not happen (the exec of a
	// tool the shell did not find).
	return cmp.Or(metaErr, missingRead, meta, missing, gr.Calls[0])
}

// readsResource reports whether c hands the program something of the
// resource other than its metadata (systable's Metadata column: stat,
// access, readlink ...): an open's result, bytes, directory entries, an
// exec, a bind's answer.
func (s *search) readsResource(c *trace.Call) bool {
	return !s.rows().ByNr(int(c.Nr)).Metadata
}

// openOf returns the open of a file the trace keeps that read seq of gr
// reads through and that succeeded here as recorded, 0 when there is
// none: the report names it, with the read as evidence.
func (s *search) openOf(gr *depgraph.Group, seq uint64, live map[uint64]*trace.Call, o *observer) uint64 {
	var op uint64
	for _, q := range gr.Calls {
		if q >= seq {
			break
		}
		c, ok := s.g.Call(q)
		if ok && c.Obj != 0 && live[q] != nil && !o.differs(c, live[q]) {
			op = q
		}
	}
	return op
}

// sameHere reports whether call seq, found by the search over every
// call, gave the same answer in the failing run next to it (live) as
// recorded, and so did every call of its resource that ran there: a
// call whose results are the same in both environments is never named
// as the culprit. Resources whose content the trace keeps (a file, an
// exec's image) can differ in content with the same results, so they
// are never judged the same. The search asks this only when it had seen
// resources that differ here and none of them made the command pass:
// when the runs showed no difference at all, what differs is out of
// their sight (data the trace left out, timing), and the thesis'
// answer, the call whose replay passes, stands.
func (s *search) sameHere(seq uint64, live map[uint64]*trace.Call) bool {
	rec, ok := s.g.Call(seq)
	if !ok || live[seq] == nil || s.obs.differs(rec, live[seq]) {
		return false
	}
	gr := s.g.GroupOf(seq)
	return gr == nil || s.groupSameHere(gr, live)
}

// groupSameHere reports whether every call of gr that ran in the run
// whose live results are live answered as recorded, at least one ran,
// and every file or image the trace keeps that they open or run (whose
// content can differ behind the same results: a mapped library) has the
// kept content here.
func (s *search) groupSameHere(gr *depgraph.Group, live map[uint64]*trace.Call) bool {
	ran := false
	for _, q := range gr.Calls {
		c, ok := s.g.Call(q)
		if !ok || (c.Obj != 0 && !s.keptSameHere(c)) {
			return false
		}
		if l := live[q]; l != nil {
			ran = true
			if s.obs.differs(c, l) {
				return false
			}
		}
	}
	return ran
}

// identicalHere reports whether call seq gave, in the run whose live
// results are live, exactly what it gave in the recording: the same
// return value and, byte for byte, the same data in every output
// buffer (no field left out, unlike the observer's comparison: a stat
// whose modification time differs is not identical). Such a call is
// never named as a cause (endings.go).
func (s *search) identicalHere(seq uint64, live map[uint64]*trace.Call) bool {
	rec, ok := s.g.Call(seq)
	l := live[seq]
	if !ok || l == nil || rec.Ret != l.Ret || rec.NoReturn != l.NoReturn {
		return false
	}
	out := func(c *trace.Call) []trace.Mem {
		var ms []trace.Mem
		for _, m := range c.Mem {
			if m.Dir == trace.Out {
				ms = append(ms, m)
			}
		}
		return ms
	}
	a, b := out(rec), out(l)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Arg != b[i].Arg || a[i].Part != b[i].Part || a[i].Entry != b[i].Entry || !bytes.Equal(a[i].Data, b[i].Data) {
			return false
		}
	}
	return true
}

// keptSameHere reports whether the file object c opened or ran has here
// the content the trace keeps of it, by SHA-256 (Options.ContentHere):
// false when either side cannot tell.
func (s *search) keptSameHere(c *trace.Call) bool {
	if s.o.Files == nil || s.o.ContentHere == nil {
		return false
	}
	obj := s.o.Files(c.Obj)
	if obj == nil || obj.SHA256 == (trace.Hash{}) {
		return false
	}
	here, err := s.o.ContentHere(obj.Path)
	return err == nil && here == obj.SHA256
}
