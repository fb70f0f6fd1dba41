package depgraph

import (
	"fmt"
	"iter"
	"slices"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Graph is the dependency graph of one trace: its resources, the edges
// between its calls, and its groups. It is built once by Build and never
// changed; it is safe for concurrent readers.
type Graph struct {
	tab *systable.Table
	// calls are the trace's calls, nil in a lean graph (BuildOptions.Lean)
	// and in one that reads them from src (BuildOptions.Source).
	calls []*trace.Call
	src   CallSource
	seqs  seqList  // each call's seq, increasing: the index (pos); 4 bytes a call
	paths []string // each call's Path, when kept (BuildOptions.Paths)
	// edgeList and actList hold every call's edges and the resources it
	// acts on, call after call (callInfo's spans): one array each
	// instead of two small ones a call.
	edgeList  []depEdge
	actList   []ResourceID
	info      []callInfo
	lean      bool
	resources []*Resource
	groups    []*Group
	edges     int
	files     Files // the trace's file objects; nil: none kept
	echo      map[uint64]*EchoCall
	// dns are the sockets to DNS servers (dns.go).
	dns map[ResourceID]dnsSocket
}

// callInfo is what the graph knows of one call: 32 bytes, a million of
// them for a trace of a million calls. Its edges and the resources it
// acts on end where the next call's begin (the lists are filled call
// after call), so only where they begin is held (depsOf, actsOf).
type callInfo struct {
	deps    uint32     // where the call's edges begin in edgeList, sorted by To once built
	acts    uint32     // where the resources the call acts on (fds, paths, mappings) begin in actList, for its class
	primary ResourceID // the resource that decides its group; 0: a process-level call
	group   GroupID
	nr      uint32 // the syscall number
	proc    uint32 // the process that made the call
	obj     uint32 // the call's Obj: the file object of what it opened or executed
	class   Class
	policy  systable.Policy
	flags   callFlags // what the closure reads of the call itself, and what replaying it keeps
}

// callFlags are what Closure and serves read of a call besides its
// info, so that a graph whose calls stay in the trace file
// (BuildOptions.Source) plans a run without reading any, and what a
// replayed call still does.
type callFlags uint8

const (
	noResult   callFlags = 1 << iota // NoReturn, or restarted: no result to replay
	incomplete                       // the recording lost part of it (Incomplete)
	failed                           // Ret < 0
	// served: an exec the trace stores the image of (systable's
	// ServesImage): replayed, it still runs, the recorded image, so what
	// later calls need of it holds; unserved: a successful exec whose
	// image the trace lacks.
	served
	unserved
	// keepsEffect: replayed, the call still runs, because it changed a
	// file-system object in the recording (RunsWhenReplayed): what it
	// depends on must be real as for an executed call.
	keepsEffect
	// setsUpServer: replayed, the call still runs, because it binds its
	// socket or makes it listen (SetsUpServer): the socket it acts on
	// must be a real one, as for an executed call.
	setsUpServer
)

// CallSource gives a trace's calls by seq, read from where they are
// kept: a tracefile.Store reads them from the file. A call it returns
// may be a fresh copy each time: callers compare calls by seq.
type CallSource interface {
	Call(seq uint64) (*trace.Call, error)
}

// depEdge is an Edge as the graph holds it, in the list of the call it
// goes from (12 bytes; an Edge, which names that call, is 24): the
// graph of a million calls holds one or two million of them. The call it
// goes to is held as its position (a seq is 8 bytes).
type depEdge struct {
	to          int32 // the position of the call it goes to
	res         ResourceID
	why         Why
	contentOnly bool
}

// edge returns e as an Edge from call seq.
func (g *Graph) edge(from uint64, e depEdge) Edge {
	return Edge{From: from, To: g.seqs.at(int(e.to)), Resource: e.res, Why: e.why, ContentOnly: e.contentOnly}
}

// span is where a call's items are in one of the graph's lists.
// depsOf returns the edges of the call at position i.
func (g *Graph) depsOf(i int32) []depEdge {
	end := uint32(len(g.edgeList))
	if int(i)+1 < len(g.info) {
		end = g.info[i+1].deps
	}
	return g.edgeList[g.info[i].deps:end:end]
}

// actsOf returns the resources the call at position i acts on.
func (g *Graph) actsOf(i int32) []ResourceID {
	end := uint32(len(g.actList))
	if int(i)+1 < len(g.info) {
		end = g.info[i+1].acts
	}
	return g.actList[g.info[i].acts:end:end]
}

// Calls returns the trace's calls in order; nil for a lean graph
// (BuildOptions.Lean) and for one whose calls stay in the trace file
// (BuildOptions.Source: AllCalls reads them). The slice is the graph's
// own: do not change it.
func (g *Graph) Calls() []*trace.Call { return g.calls }

// AllCalls yields the trace's calls in order, from memory or read from
// the graph's CallSource; none for a lean graph. A call read from the
// source is one the source may hand out again as another copy.
func (g *Graph) AllCalls() iter.Seq[*trace.Call] {
	return func(yield func(*trace.Call) bool) {
		if g.calls == nil && g.src == nil {
			return
		}
		for i := range g.seqs.len() {
			if !yield(g.call(int32(i))) {
				return
			}
		}
	}
}

// call returns the call at position i, from memory or from the graph's
// source. The source's file was checked whole before the graph was
// built from it: failing to read it again (the file changed or became
// unreadable) is a panic with the source's error, which names the file.
func (g *Graph) call(i int32) *trace.Call {
	if g.calls != nil {
		return g.calls[i]
	}
	c, err := g.src.Call(g.seqs.at(int(i)))
	if err != nil {
		panic(fmt.Errorf("dependency graph: call %d: %w", g.seqs.at(int(i)), err))
	}
	if c == nil {
		panic(fmt.Errorf("dependency graph: call %d is not in the trace it was built from", g.seqs.at(int(i))))
	}
	return c
}

// Source returns the CallSource the graph reads its calls from; nil
// for a graph that holds them (or none).
func (g *Graph) Source() CallSource { return g.src }

// NumCalls returns how many calls the graph has, lean or not.
func (g *Graph) NumCalls() int { return g.seqs.len() }

// SeqAt returns the seq of the i-th call (0 <= i < NumCalls).
func (g *Graph) SeqAt(i int) uint64 { return g.seqs.at(i) }

// Pos returns the position of call seq among the graph's calls, for
// SeqAt; false for a seq not in the trace.
func (g *Graph) Pos(seq uint64) (int, bool) {
	i, ok := g.pos(seq)
	return int(i), ok
}

// Lean reports whether the graph was built without keeping the calls
// nor a source of them (BuildOptions.Lean): Calls and Call have none,
// and Closure cannot be asked.
func (g *Graph) Lean() bool { return g.lean && g.src == nil }

// Call returns the call numbered seq; false for a seq not in the trace
// and in a lean graph.
func (g *Graph) Call(seq uint64) (*trace.Call, bool) {
	i, ok := g.pos(seq)
	if !ok || g.Lean() {
		return nil, false
	}
	return g.call(i), true
}

// Syscall returns the number of call seq's syscall; false for a seq not
// in the trace. Lean graphs have it too.
func (g *Graph) Syscall(seq uint64) (int, bool) {
	i, ok := g.pos(seq)
	if !ok {
		return 0, false
	}
	return int(g.info[i].nr), true
}

// Path returns the Path of call seq, for a graph that keeps them
// (BuildOptions.Paths, or any graph that is not lean); false otherwise,
// and for a seq not in the trace.
func (g *Graph) Path(seq uint64) (string, bool) {
	i, ok := g.pos(seq)
	switch {
	case !ok:
		return "", false
	case g.paths != nil:
		return g.paths[i], true
	case !g.Lean():
		return g.call(i).Path, true
	}
	return "", false
}

// pos returns the position of call seq among the graph's calls. Seqs
// increase, and usually by one: the position is then found at once, else
// by binary search.
func (g *Graph) pos(seq uint64) (int32, bool) {
	i, ok := g.seqs.search(seq)
	return int32(i), ok
}

// Table returns the syscall table the graph was built with.
func (g *Graph) Table() *systable.Table { return g.tab }

// Deps returns the edges from call seq to the calls it depends on, by
// increasing To.
func (g *Graph) Deps(seq uint64) []Edge {
	i, ok := g.pos(seq)
	if !ok {
		return nil
	}
	deps := g.depsOf(i)
	if deps == nil {
		return nil
	}
	out := make([]Edge, len(deps))
	for k, e := range deps {
		out[k] = g.edge(seq, e)
	}
	return out
}

// EdgeCount returns how many edges the graph has, also when it does not
// keep them (BuildOptions.CountEdges).
func (g *Graph) EdgeCount() int { return g.edges }

// Edges returns every edge, by increasing From, then To; none in a
// graph that only counts them (BuildOptions.CountEdges).
func (g *Graph) Edges() []Edge {
	out := []Edge{}
	for e := range g.AllEdges() {
		out = append(out, e)
	}
	return out
}

// AllEdges yields every edge, by increasing From, then To, without
// copying them (Edges does).
func (g *Graph) AllEdges() iter.Seq[Edge] {
	return func(yield func(Edge) bool) {
		for i := range g.seqs.len() {
			seq := g.seqs.at(i)
			for _, e := range g.depsOf(int32(i)) {
				if !yield(g.edge(seq, e)) {
					return
				}
			}
		}
	}
}

// DependsOn returns every call that call seq depends on, directly or
// transitively, in increasing order.
func (g *Graph) DependsOn(seq uint64) []uint64 {
	i, ok := g.pos(seq)
	if !ok {
		return nil
	}
	seen := map[int32]bool{i: true}
	stack := []int32{i}
	var out []uint64
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range g.depsOf(j) {
			k := e.to
			if !seen[k] {
				seen[k] = true
				out = append(out, g.seqs.at(int(k)))
				stack = append(stack, k)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Resources returns every resource, by ID.
func (g *Graph) Resources() []*Resource { return g.resources }

// Resource returns the resource id, or nil.
func (g *Graph) Resource(id ResourceID) *Resource {
	if id < 1 || int(id) > len(g.resources) {
		return nil
	}
	return g.resources[id-1]
}

// ResourcesOf returns the resources call seq acts on: the fds it passes,
// the paths it names, the mappings it changes.
func (g *Graph) ResourcesOf(seq uint64) []ResourceID {
	i, ok := g.pos(seq)
	if !ok {
		return nil
	}
	return slices.Clone(g.actsOf(i))
}

// Groups returns every group, by ID (the order of their first calls).
func (g *Graph) Groups() []*Group { return g.groups }

// Group returns group id, or nil.
func (g *Graph) Group(id GroupID) *Group {
	if id < 1 || int(id) > len(g.groups) {
		return nil
	}
	return g.groups[id-1]
}

// GroupOf returns the group of call seq, or nil for a seq not in the
// trace.
func (g *Graph) GroupOf(seq uint64) *Group {
	i, ok := g.pos(seq)
	if !ok {
		return nil
	}
	return g.Group(g.info[i].group)
}

// ClassOf returns the class of call seq: the strongest class of the
// resources it acts on (internal over input over environment), or its
// group's class for calls that act on none. 0 for a seq not in the trace.
func (g *Graph) ClassOf(seq uint64) Class {
	i, ok := g.pos(seq)
	if !ok {
		return 0
	}
	return g.info[i].class
}
