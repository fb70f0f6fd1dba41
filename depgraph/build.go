package depgraph

import (
	"fmt"
	"slices"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Build builds the dependency graph of a trace's events, decoding calls
// with tab (the table of the trace's architecture; h may be nil). It
// reads the events only. It fails when tab is not for h's architecture or
// the calls' seqs do not increase.
func Build(tab *systable.Table, h *trace.Header, events []trace.Event) (*Graph, error) {
	return BuildServed(tab, h, events, nil)
}

// BuildServed is Build for a trace that keeps the good environment's
// files (files; nil: none): the closure of its plans lets a replayed open
// whose file it keeps stay replayed where the calls that execute on the
// fd need only the file's content (served.go).
func BuildServed(tab *systable.Table, h *trace.Header, events []trace.Event, files Files) (*Graph, error) {
	return BuildWith(tab, h, events, BuildOptions{Files: files})
}

// BuildWith is Build with options: the loop of a Spawns and a Builder
// over events.
func BuildWith(tab *systable.Table, h *trace.Header, events []trace.Event, o BuildOptions) (*Graph, error) {
	return BuildPasses(tab, h, func(fn func(*trace.Event) error) error {
		for i := range events {
			if err := fn(&events[i]); err != nil {
				return err
			}
		}
		return nil
	}, o)
}

// BuildPasses is BuildWith over a trace whose events each passes over
// in order (twice: Spawns, then the Builder), such as a tracefile.Store
// that reads them from the file: with BuildOptions.Source the graph
// holds no call. An error of each is returned as it is.
func BuildPasses(tab *systable.Table, h *trace.Header, each func(func(*trace.Event) error) error, o BuildOptions) (*Graph, error) {
	sp := NewSpawns(tab)
	calls := 0
	err := each(func(ev *trace.Event) error {
		sp.Add(ev)
		if ev.Call != nil {
			calls++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	b, err := NewBuilder(tab, h, sp, o)
	if err != nil {
		return nil, err
	}
	b.b.reserve(calls)
	if err := each(b.Add); err != nil {
		return nil, err
	}
	return b.Graph(), nil
}

// BuildOptions say what a graph keeps besides its groups and resources.
// The zero value keeps everything, as Build does.
type BuildOptions struct {
	// Files are the trace's file objects (BuildServed); nil: none.
	Files Files
	// Lean: the graph keeps no call (Graph.Calls and Graph.Call have
	// none; Closure may not be asked), only what it knows of each call
	// (its seq, syscall, group, class, edges): about 56 bytes a call and
	// 24 an edge, against 300 to 400 for a call read whole. For what
	// deps prints of a long trace.
	Lean bool
	// Paths: a lean graph keeps each call's Path (Graph.Path), for the
	// labels of deps --dot.
	Paths bool
	// Source: the graph keeps no call (as Lean) but reads them from
	// Source when asked (Call, AllCalls, Path), and Closure may be
	// asked: it reads no call. For call-level runs of a long trace,
	// whose calls a tracefile.Store keeps in the file.
	Source CallSource
	// CountEdges: the graph counts the edges instead of keeping them
	// (Edges, Deps and DependsOn answer none): for deps' table of
	// groups.
	CountEdges bool
}

// Spawns pairs each new thread or process with the call that made it:
// the next successful clone, fork or vfork of the parent thread after the
// Spawn event (the tracer sees the new task before the call returns), or
// the one before it in traces that list the call first. It is the first
// of the two passes over the events that building a graph takes, because
// a Spawn event can come before its call; it holds one entry per thread.
type Spawns struct {
	tab       *systable.Table
	spawnCall map[uint32]uint64   // new thread (logical id) -> the clone, fork or vfork that made it
	children  map[uint32][]uint32 // parent thread -> children not yet paired
	calls     map[uint32][]uint64 // parent thread -> creating calls not yet paired
}

// NewSpawns returns an empty Spawns decoding calls with tab.
func NewSpawns(tab *systable.Table) *Spawns {
	return &Spawns{tab: tab, spawnCall: map[uint32]uint64{}, children: map[uint32][]uint32{}, calls: map[uint32][]uint64{}}
}

// Add reads the next event of the trace.
func (s *Spawns) Add(ev *trace.Event) {
	switch {
	case ev.Proc != nil && (ev.Proc.Kind == trace.Spawn || ev.Proc.Kind == trace.SpawnThread) && ev.Proc.ParentThread != 0:
		pt := ev.Proc.ParentThread
		if q := s.calls[pt]; len(q) > 0 {
			s.spawnCall[ev.Proc.Thread], s.calls[pt] = q[0], q[1:]
		} else {
			s.children[pt] = append(s.children[pt], ev.Proc.Thread)
		}
	case ev.Call != nil:
		c := ev.Call
		row := s.tab.ByNr(int(c.Nr))
		if row.Unknown || row.Effects&systable.CreatesProcess == 0 || c.NoReturn || c.Ret <= 0 {
			return
		}
		if q := s.children[c.Thread]; len(q) > 0 {
			s.spawnCall[q[0]], s.children[c.Thread] = c.Seq, q[1:]
		} else {
			s.calls[c.Thread] = append(s.calls[c.Thread], c.Seq)
		}
	}
}

// Builder builds a graph from a trace's events, one at a time, in
// order (the second pass; Spawns is the first). It holds the model of
// the kernel state the calls touch, and the graph so far: with
// BuildOptions.Lean, not the calls.
type Builder struct {
	b    *builder
	last uint64 // the last call's seq
}

// NewBuilder returns a Builder of the graph of a trace whose events
// spawns has read, decoding calls with tab (the table of the trace's
// architecture; h may be nil). It fails when tab is not for h's
// architecture.
func NewBuilder(tab *systable.Table, h *trace.Header, spawns *Spawns, o BuildOptions) (*Builder, error) {
	if h != nil && h.Arch != "" && h.Arch != tab.Arch {
		return nil, fmt.Errorf("dependency graph: the trace is for %s, the syscall table for %s", h.Arch, tab.Arch)
	}
	return &Builder{b: &builder{
		tab:       tab,
		g:         &Graph{tab: tab, files: o.Files, lean: o.Lean || o.Source != nil, src: o.Source, dns: make(map[ResourceID]dnsSocket)},
		countOnly: o.CountEdges,
		keepPaths: o.Paths,
		procs:     make(map[uint32]*proc),
		threads:   make(map[uint32]*thread),
		spawnCall: spawns.spawnCall,
		paths:     make(map[string]*pathNode),
		inherited: make(map[int32]*desc),
		descs:     make(map[ResourceID]*desc),
	}}, nil
}

// Add adds the next event. It fails when a call's seq does not follow
// the last one's. A lean graph keeps no reference to ev, but for a call
// on a socket until Graph (echo protocols and DNS are read from those).
func (bb *Builder) Add(ev *trace.Event) error {
	switch {
	case ev.Proc != nil:
		bb.b.procEvent(ev.Proc)
	case ev.Call != nil:
		if ev.Call.Seq <= bb.last {
			return fmt.Errorf("dependency graph: call seq %d follows seq %d: seqs must increase", ev.Call.Seq, bb.last)
		}
		bb.last = ev.Call.Seq
		bb.b.call(ev.Call)
	}
	return nil
}

// Graph finishes the graph once every event is added: what only the
// whole trace tells (classes, groups, echo protocols). The Builder may
// not be used after.
func (bb *Builder) Graph() *Graph {
	bb.b.finish()
	return bb.b.g
}

// builder walks the trace once, keeping a model of the kernel state the
// calls touch (state.go) and recording for each call the calls that last
// defined what it uses.
type builder struct {
	tab       *systable.Table
	g         *Graph
	countOnly bool // BuildOptions.CountEdges: each call's edges are dropped once counted
	keepPaths bool // BuildOptions.Paths
	procs     map[uint32]*proc
	threads   map[uint32]*thread
	spawnCall map[uint32]uint64 // new thread (logical id) -> the clone, fork or vfork that made it (Spawns)
	paths     map[string]*pathNode
	inherited map[int32]*desc      // by fd number
	descs     map[ResourceID]*desc // every desc but a file's, and the desc behind each mapping, by resource
	sockets   []*desc
	epolls    []*desc
	// onSockets are the calls whose group a socket decides, with their
	// positions: what finish reads of the calls (echo protocols, DNS),
	// kept also in a lean graph.
	onSockets []sockCall
}

// sockCall is a call on a socket and its position among the graph's
// calls.
type sockCall struct {
	i int32
	c *trace.Call
}

// callCtx is the builder's scratch for the call being added.
type callCtx struct {
	c    *trace.Call
	row  *systable.Syscall
	eff  systable.Effect
	ok   bool // the call succeeded (connect: or is in progress)
	seq  uint64
	t    *thread
	p    *proc
	ci   *callInfo
	g    *Graph // the graph the call is added to: its lists hold ci's edges and resources
	used []usedFD
	// names are the absolute paths the call names, in argument order.
	names   []string
	created *desc
	maps    []mapping
}

// usedFD is one fd the call passes, with the table entry it found.
type usedFD struct {
	arg int
	fd  int32
	s   slot
}

// procEvent applies a process life event.
func (b *builder) procEvent(ev *trace.ProcEvent) {
	switch ev.Kind {
	case trace.Spawn:
		if _, ok := b.procs[ev.Proc]; ok {
			return
		}
		created := b.spawnCall[ev.Thread]
		var parent *proc
		if ev.Parent != 0 {
			parent = b.proc(ev.Parent)
		}
		p := b.newProc(ev.Proc, parent, ev.CloneFlags, created)
		b.threads[ev.Thread] = &thread{id: ev.Thread, proc: p, res: p.res, def: created}
	case trace.SpawnThread:
		p := b.proc(ev.Proc)
		created := b.spawnCall[ev.Thread]
		res := b.newResource(Thread, fmt.Sprintf("thread %d of process %d", ev.Thread, ev.Proc), created)
		res.Class = Internal
		b.threads[ev.Thread] = &thread{id: ev.Thread, proc: p, res: res, def: created}
	case trace.Exec:
		if p, ok := b.procs[ev.Proc]; ok {
			p.pendingExec = true
			if ev.Exe != "" {
				p.exe = ev.Exe
			}
		}
	}
}

// proc returns process id, making it (with nothing inherited) if the
// trace never said how it came to be.
func (b *builder) proc(id uint32) *proc {
	if p, ok := b.procs[id]; ok {
		return p
	}
	return b.newProc(id, nil, 0, 0)
}

// thread returns the thread a call was made by.
func (b *builder) thread(procID, id uint32) *thread {
	if t, ok := b.threads[id]; ok && t.proc.id == procID {
		return t
	}
	p := b.proc(procID)
	t := &thread{id: id, proc: p, res: p.res}
	b.threads[id] = t
	return t
}

// newProc makes process id as a copy of parent as clone flags say:
// CLONE_FILES shares the fd table, CLONE_FS the working directory,
// CLONE_VM the mappings; credentials and limits are copied.
func (b *builder) newProc(id uint32, parent *proc, flags uint64, created uint64) *proc {
	p := &proc{id: id}
	p.res = b.newResource(Process, fmt.Sprintf("process %d", id), created)
	p.res.Class = Internal
	cwd := b.newResource(Cwd, fmt.Sprintf("cwd of process %d", id), 0)
	attrs := b.newResource(Attrs, fmt.Sprintf("attributes of process %d", id), 0)
	cwd.Class, attrs.Class = Environment, Environment
	if parent == nil {
		p.fds, p.fs, p.attrs, p.mem = newFDTable(), &fsState{res: cwd}, &attrState{res: attrs}, &addrSpace{}
	} else {
		share := systable.CloneSharing(flags)
		p.exe = parent.exe
		p.fds = parent.fds.Fork(flags)
		p.fs = &fsState{res: cwd, def: parent.fs.def}
		if share.FS {
			p.fs = parent.fs
		}
		a := *parent.attrs
		a.res = attrs
		p.attrs = &a
		p.mem = parent.mem.clone()
		if share.VM {
			p.mem = parent.mem
		}
	}
	b.procs[id] = p
	return p
}

// reserve makes room in the graph's per-call lists for n calls, so that
// a graph of known size is built without growing them (each growth holds
// the old array and the new one at once: at a million calls, a peak of
// 60 MiB more than the lists).
func (b *builder) reserve(n int) {
	b.g.seqs.grow(n)
	b.g.info = slices.Grow(b.g.info, n)
	switch {
	case !b.g.lean:
		b.g.calls = slices.Grow(b.g.calls, n)
	case b.keepPaths:
		b.g.paths = slices.Grow(b.g.paths, n)
	}
}

// newResource adds a resource to the graph.
func (b *builder) newResource(kind ResourceKind, name string, created uint64) *Resource {
	r := &Resource{ID: ResourceID(len(b.g.resources) + 1), Kind: kind, Created: created}
	if name != "" && kind != Path && kind != File {
		r.setMore().name = name
	}
	b.g.resources = append(b.g.resources, r)
	return r
}

// call adds one call: first the edges to what it uses, then what it
// defines (only if it succeeded), so a call never depends on itself.
func (b *builder) call(c *trace.Call) {
	row := b.tab.ByNr(int(c.Nr))
	t := b.thread(c.Proc, c.Thread)
	var eff systable.Effect
	if !row.Unknown {
		eff = row.EffectsFor(c.Args)
	}
	if t.proc.pendingExec && eff&systable.ExecsImage == 0 {
		b.exec(t, 0) // the exec's own call is not in the trace
	}
	b.g.seqs.add(c.Seq)
	switch {
	case !b.g.lean:
		b.g.calls = append(b.g.calls, c)
	case b.keepPaths:
		b.g.paths = append(b.g.paths, c.Path)
	}
	ci := b.replayInfo(row, c, t)
	ci.nr, ci.proc, ci.obj = c.Nr, c.Proc, c.Obj
	if c.NoReturn || c.Restarted() {
		ci.flags |= noResult
	}
	if c.Incomplete() {
		ci.flags |= incomplete
	}
	if c.Ret < 0 {
		ci.flags |= failed
	}
	ci.deps, ci.acts = uint32(len(b.g.edgeList)), uint32(len(b.g.actList))
	b.g.info = append(b.g.info, ci)
	x := &callCtx{
		c: c, row: row, eff: eff, seq: c.Seq, t: t, p: t.proc, ci: &b.g.info[len(b.g.info)-1], g: b.g,
		ok: !c.NoReturn && (c.Ret >= 0 || c.Errno() == int(unix.EINPROGRESS)),
	}
	defer b.keep(x)
	b.dep(x, t.def, ByProcess, t.res)
	if row.Unknown {
		return
	}

	if SetsUpServer(row, c.Args) { // runs replayed, succeeded or not
		x.ci.flags |= setsUpServer
	}
	b.useAttrs(x)
	b.useFDs(x)
	b.usePaths(x)
	b.useMemory(x)

	if x.ok {
		b.defineFDs(x)
		b.definePaths(x)
		b.defineAttrs(x)
		b.defineMemory(x)
		if eff&systable.ChangesCwd != 0 {
			x.p.fs.def = x.seq
		}
		if eff&systable.CreatesPath != 0 {
			x.keepEffect("") // a creation, whether or not its path was resolved
		}
	}
	b.defineSockets(x)
	b.closeFDs(x)
	if eff&systable.ExecsImage != 0 && (x.ok || t.proc.pendingExec) {
		named := !t.proc.pendingExec // the Exec event names the image better (symlinks resolved)
		b.exec(t, x.seq)
		if named && len(x.names) > 0 {
			t.proc.exe = x.names[0]
		}
	}
	b.pickPrimary(x)
}

// keep keeps, once a call is added, what finish reads of it: the call
// itself when a socket decides its group (echo protocols and DNS are
// found on those), and its edges unless the graph only counts them.
func (b *builder) keep(x *callCtx) {
	if d := b.descs[x.ci.primary]; d != nil && d.sock != nil {
		b.onSockets = append(b.onSockets, sockCall{i: int32(len(b.g.info) - 1), c: x.c})
	}
	if b.countOnly {
		b.g.edgeList = b.g.edgeList[:x.ci.deps]
	}
}

// replayInfo starts a call's info with what decides whether it can be
// replayed: the table's policy and, for an exec in a trace that keeps files (BuildServed),
// whether it keeps the image the exec ran.
func (b *builder) replayInfo(row *systable.Syscall, c *trace.Call, t *thread) callInfo {
	ci := callInfo{policy: row.Policy}
	if !row.ServesImage || c.NoReturn || c.Ret != 0 || b.g.files == nil {
		return ci // a trace without files (format version 1, eBPF): execs execute, as before
	}
	if t.def == 0 {
		// The command's own exec, which live is made by the tracer's
		// helper, never by a traced process (replay does not see it), or
		// an exec by a thread the trace does not say was created.
		return ci
	}
	stored := false
	if f := b.g.files.File(c.Obj); c.Obj != 0 && f != nil {
		stored = f.Stored() && f.Mode&unix.S_IFMT == unix.S_IFREG
	}
	if row.ServedImage(c.Obj, c.Ret, stored) {
		ci.flags |= served
	} else {
		ci.flags |= unserved
	}
	return ci
}

// dep records that the call depends on call to, through resource r.
func (b *builder) dep(x *callCtx, to uint64, why Why, r *Resource) {
	b.depOn(x, to, why, r, false)
}

// depOn is dep for a use of an fd that, with contentOnly, needs only the
// content of the file behind it (Edge.ContentOnly holds while every use
// of to by the call does).
func (b *builder) depOn(x *callCtx, to uint64, why Why, r *Resource, contentOnly bool) {
	if to == 0 || to == x.seq {
		return
	}
	// An edge goes to a call of the trace (an earlier one): one to a
	// seq that is no call would name nothing a plan runs or replays.
	at, ok := b.g.pos(to)
	if !ok {
		return
	}
	deps := b.g.edgeList[x.ci.deps:]
	for i := range deps {
		if e := &deps[i]; e.to == at {
			e.why |= why
			e.contentOnly = e.contentOnly && contentOnly
			return
		}
	}
	var id ResourceID
	if r != nil {
		id = r.ID
	}
	b.g.edgeList = append(b.g.edgeList, depEdge{to: at, why: why, res: id, contentOnly: contentOnly})
	b.g.edges++
}

// acts records that the call acts on r.
func (x *callCtx) acts(r *Resource) {
	g := x.g
	for _, id := range g.actList[x.ci.acts:] {
		if id == r.ID {
			return
		}
	}
	g.actList = append(g.actList, r.ID)
}

// exec gives t's process a new image: close-on-exec fds are closed (in a
// table of its own), the mappings are gone, and the exec'ing thread is
// now the process's only one, defined by the exec (seq; 0 if the trace
// lacks the call).
func (b *builder) exec(t *thread, seq uint64) {
	p := t.proc
	p.fds = p.fds.Exec()
	p.mem = &addrSpace{}
	p.pendingExec = false
	t.res = p.res
	if seq != 0 {
		t.def = seq
	}
}

// pickPrimary chooses the resource whose group the call goes in: what
// it creates, else the path it names, else the fd it uses, else the
// mapping it changes. Calls with none are grouped by process or syscall.
func (b *builder) pickPrimary(x *callCtx) {
	switch {
	case x.created != nil:
		x.ci.primary = x.created.res.ID
	case len(x.names) > 0:
		x.ci.primary = b.pathNode(x.names[0]).res.ID
	case len(x.used) > 0:
		x.ci.primary = x.used[0].s.d.res.ID
	case len(x.maps) > 0:
		x.ci.primary = x.maps[0].res.ID
	}
}
