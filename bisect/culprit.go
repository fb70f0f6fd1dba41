package bisect

import (
	"strings"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// culprit describes call seq with its recorded result and its live one
// in the failing run (liveRun, by recorded seq; absent: it did not happen
// there).
func (s *search) culprit(seq uint64, liveRun map[uint64]*trace.Call) (*Culprit, *Group) {
	cu, gr := s.culpritFacts(seq, liveRun)
	cu.Differs = s.differsKind(cu)
	s.explain(cu, liveRun)
	return cu, gr
}

// culpritFacts is culprit without the explanation.
func (s *search) culpritFacts(seq uint64, liveRun map[uint64]*trace.Call) (*Culprit, *Group) {
	cu, gr := s.describe(seq, liveRun[seq])
	cu.DNS = s.dnsExchange(gr, liveRun)
	s.groupListing(cu, gr, liveRun)
	if gr == nil || cu.Here.Missing || cu.Here.Errno != "" || cu.Good.Errno != "" {
		return cu, s.group(gr)
	}
	if c, _ := s.g.Call(seq); c.Obj != 0 {
		// An open of a file the trace keeps, succeeding here too (on
		// whatever fd number): what differs is the file, where a later
		// call on it shows it.
		for _, q := range gr.Calls {
			if q <= seq || liveRun[q] == nil || !s.readsFileData(q) {
				continue
			}
			if d, _ := s.describe(q, liveRun[q]); d.DataDiff != nil {
				cu.Content = d
				break
			}
		}
	}
	return cu, s.group(gr)
}

// describe describes call seq with its recorded result and live, the
// result it gave in the failing run (nil: it did not happen there), and
// returns its dependency group.
func (s *search) describe(seq uint64, live *trace.Call) (*Culprit, *depgraph.Group) {
	c, ok := s.g.Call(seq)
	if !ok {
		return &Culprit{Seq: seq, Good: Result{Missing: true}, Here: Result{Missing: true}}, nil
	}
	rows := s.rows()
	who, exe := caller(&s.o, c)
	cu := &Culprit{
		Seq: seq, Proc: c.Proc, Thread: c.Thread, Who: who, Exe: exe,
		Syscall: rows.ByNr(int(c.Nr)).Name, Call: callString(rows, c), Path: c.Path,
		Good: result(rows, c), Here: Result{Missing: true}, HerePath: s.herePath(c.Path),
	}
	cu.Image = s.imageRun(c)
	if live != nil {
		cu.Here = result(rows, live)
		cu.DataDiff = dataDiff(rows, s.o.Header, c, live)
	}
	gr := s.g.GroupOf(seq)
	if gr != nil {
		cu.Resource = gr.Title()
	}
	return cu, gr
}

// group is the report's form of gr.
func (s *search) group(gr *depgraph.Group) *Group {
	if gr == nil {
		return nil
	}
	rows := s.rows()
	g := &Group{ID: gr.ID, Kind: gr.Kind, Title: gr.Title(), Calls: make([]GroupCall, 0, len(gr.Calls))}
	for _, q := range gr.Calls {
		name := ""
		if qc, ok := s.g.Call(q); ok {
			name = rows.ByNr(int(qc.Nr)).Name
		}
		g.Calls = append(g.Calls, GroupCall{Seq: q, Syscall: name})
	}
	return g
}

// rows is the table calls are rendered with.
func (s *search) rows() render.Rows {
	if s.o.Rows != nil {
		return s.o.Rows
	}
	return s.g.Table()
}

// callString is c as show prints it, strings cut as show cuts them.
func callString(rows render.Rows, c *trace.Call) string {
	return render.CallString(rows, c, render.DefaultStringSize)
}

// result is what c gave.
func result(rows render.Rows, c *trace.Call) Result {
	r := Result{NoReturn: c.NoReturn, Call: callString(rows, c), Return: returnString(rows, c), Denied: c.Denied}
	if !c.NoReturn {
		ret := c.Ret
		r.Ret = &ret
	}
	if e := c.Errno(); e != 0 {
		r.Errno, _, _ = strings.Cut(render.ErrnoText(e), " ")
	}
	for _, b := range outBuffers(rows, c) {
		if r.Data == nil {
			r.Data = map[string]Buffer{}
		}
		r.Data[b.key] = newBuffer(b.m)
	}
	return r
}

// returnString is the result part of c as show prints it: what follows
// ") = " in the call's line.
func returnString(rows render.Rows, c *trace.Call) string {
	line := strings.TrimSuffix(render.CallString(rows, c, 1), " /* unknown syscall */")
	if i := strings.LastIndex(line, ") = "); i >= 0 {
		return line[i+len(") = "):]
	}
	return "?"
}

// readsFileData reports whether call seq hands the program a file's
// bytes: its row has an out-buffer of plain bytes (read, pread, readv),
// not a struct (fstat's, whose device and inode numbers differ for any
// two files).
func (s *search) readsFileData(seq uint64) bool {
	c, ok := s.g.Call(seq)
	if !ok {
		return false
	}
	for _, a := range s.rows().ByNr(int(c.Nr)).Args {
		if (a.Kind == systable.OutBuf || a.Kind == systable.OutIovec) && a.Struct == "" {
			return true
		}
	}
	return false
}

// imageRun is the file object of the image the recording ran for c's
// resource: c's own when it is an exec that ran one, else that of an exec
// of the same resource (a stat that finds a tool missing here names the
// tool the recording then ran); nil when none ran or the trace keeps no
// object of it.
func (s *search) imageRun(c *trace.Call) *trace.FileObject {
	if s.o.Files == nil {
		return nil
	}
	rows := s.rows()
	serves := func(c *trace.Call) bool { return rows.ByNr(int(c.Nr)).ServesImage && c.Obj != 0 }
	if serves(c) {
		return s.o.Files(c.Obj)
	}
	gr := s.g.GroupOf(c.Seq)
	if gr == nil {
		return nil
	}
	for _, q := range gr.Calls {
		if e, ok := s.g.Call(q); ok && serves(e) {
			return s.o.Files(e.Obj)
		}
	}
	return nil
}
