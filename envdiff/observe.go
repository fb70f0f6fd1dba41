package envdiff

import (
	"cmp"
	"math"
	"path"
	"slices"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Error numbers the walk reads, the same on every Linux architecture.
const (
	enoent = 2
	eexist = 17
)

// pathRec is what the recording shows of one path.
type pathRec struct {
	path  string
	first uint64 // the first call that met it (0: none)
	// named: a call named it by a path argument, or a file object or a
	// parent's stat did. A path only met through an fd no traced call
	// opened (the command's inherited stdin, stdout and stderr) is its
	// input and output, not environment.
	named bool
	// entriesChanged: the command created or removed entries in the
	// directory, which changed its mtime.
	entriesChanged bool
	// obs are the observations before the command first changed the
	// path, by view.
	obs [views][]obs
	// seen indexes obs by what they say, once a view has many (add).
	seen [views]map[obsKey]uint64
	// changed is the first call by which the command changed the path
	// (created, removed, wrote, truncated, chmod'ed ...); created the
	// first that made it (0: none).
	changed, created uint64
	// leadsTo is where the path led in the good run with its links
	// followed, when a file object says it led elsewhere (Resolved).
	leadsTo string
	// entries is the first complete listing of the directory the path
	// leads to (names, sorted; listed says it was listed, at call
	// listedAt).
	entries  []string
	listed   bool
	listedAt uint64
}

// hasObs reports whether the recording saw the path's state before the
// command changed it.
func (r *pathRec) hasObs() bool { return len(r.obs[viewFollow])+len(r.obs[viewSelf]) > 0 || r.listed }

// walker reads a trace's calls in order into pathRecs.
type walker struct {
	table *systable.Table
	arch  string
	recs  map[string]*pathRec
	lists map[listKey]*listing
	// file looks up the file object a call names (Call.Obj); nil when
	// the file objects are not known yet (a trace read as a stream, whose
	// file frames may follow the calls that name them): pending then
	// holds the first call that named each one, observed by finish.
	file    func(id uint32) *trace.FileObject
	pending map[uint32]uint64
	// late: finish is observing pending file objects, each as of the
	// call that first named it, after the walk of later calls.
	late bool
	used map[uint32]bool // file objects a call named
}

// newWalker returns a walker of the calls of a trace of architecture
// arch; file is as walker.file.
func newWalker(table *systable.Table, arch string, file func(uint32) *trace.FileObject) *walker {
	return &walker{table: table, arch: arch, file: file, recs: map[string]*pathRec{},
		lists: map[listKey]*listing{}, used: map[uint32]bool{}, pending: map[uint32]uint64{}}
}

// rec is p's record, made on first use.
func (w *walker) rec(p string) *pathRec {
	r := w.recs[p]
	if r == nil {
		r = &pathRec{path: p}
		w.recs[p] = r
	}
	return r
}

// meet notes that call seq met p, by name when named.
func (w *walker) meet(p string, seq uint64, named bool) {
	if !usable(p) {
		return
	}
	r := w.rec(p)
	if r.first == 0 || seq < r.first {
		r.first = seq
	}
	r.named = r.named || named
}

// see adds an observation of p, unless the command changed p already.
func (w *walker) see(p string, v view, o obs) {
	if !usable(p) {
		return
	}
	if r := w.rec(p); w.unchanged(r, o.seq) {
		r.add(v, o)
	}
}

// unchanged reports whether the command had not changed r's path yet
// when call seq met it: not at all so far, or, for a file object
// observed late (finish), not before that call.
func (w *walker) unchanged(r *pathRec, seq uint64) bool {
	return r.changed == 0 || w.late && r.changed >= seq
}

// change notes that call seq changed p (created it, when creates; made
// or removed an entry of its directory, when entry).
func (w *walker) change(p string, seq uint64, creates, entry bool) {
	if !usable(p) {
		return
	}
	r := w.rec(p)
	if r.changed == 0 {
		r.changed = seq
	}
	if creates && r.created == 0 {
		r.created = seq
	}
	if entry {
		w.rec(path.Dir(p)).entriesChanged = true
	}
}

// add reads one event of the trace, in order.
func (w *walker) add(ev *trace.Event) {
	if ev.Call != nil {
		w.call(ev.Call)
	}
}

// finish observes, once every call is read, the file objects the calls
// named when they were not known then (in the order of the calls that
// first named them, each as of that call), then those no call named (an
// executable's ELF interpreter, which the kernel opens): those are
// observed last, and only of paths the command never changed. files are
// all the trace's file objects.
func (w *walker) finish(files []trace.FileObject) {
	byID := make(map[uint32]*trace.FileObject, len(files))
	for i := range files {
		byID[files[i].ID] = &files[i]
	}
	type named struct {
		seq uint64
		f   *trace.FileObject
	}
	var late []named
	for id, seq := range w.pending {
		if f := byID[id]; f != nil {
			late = append(late, named{seq, f})
		}
	}
	slices.SortFunc(late, func(a, b named) int { return cmp.Compare(a.seq, b.seq) })
	w.late = true
	for _, n := range late {
		w.used[n.f.ID] = true
		w.fileAt(n.seq, n.f)
	}
	w.late, w.pending = false, nil
	for i := range files {
		f := &files[i]
		if w.used[f.ID] {
			continue
		}
		if r := w.recs[fileTarget(f)]; r == nil || r.changed == 0 {
			w.fileAt(math.MaxUint64, f)
		}
	}
	for _, r := range w.recs {
		r.seen = [views]map[obsKey]uint64{}
		if r.changed == 0 {
			continue
		}
		all := slices.Concat(r.obs[viewFollow], r.obs[viewSelf])
		for i, o := range r.obs[viewFollow] {
			if o.file != nil {
				r.obs[viewFollow][i] = untimely(o, all)
			}
		}
	}
}

// fileTarget is the path a file object's content and stat belong to.
func fileTarget(f *trace.FileObject) string {
	if f.Resolved != "" {
		return f.Resolved
	}
	return f.Path
}

// call reads one call: what it shows of the paths it names, and what it
// changes. A call's observations of a path it changes itself are not
// the path's state before the command changed it, but those its success
// implies: a path it removed or modified existed.
func (w *walker) call(c *trace.Call) {
	row := w.table.ByNr(int(c.Nr))
	if row == nil || row.Unknown || c.Denied || c.NoReturn || c.Restarted() {
		return
	}
	p1, p2 := c.Path, c.Path2
	named := namesPath(row, c)
	w.meet(p1, c.Seq, named)
	w.meet(p2, c.Seq, named)
	eff := row.EffectsFor(c.Args)
	twoPaths := pathArgs(row) > 1
	v := viewSelf
	if row.FollowsLink(c.Args) {
		v = viewFollow
	}
	for _, d := range c.Dirs {
		w.meet(d.Path, c.Seq, named)
		w.see(d.Path, viewFollow, obs{seq: c.Seq, st: envobj.State{
			Exists: true, Type: typeOf(d.Mode), Mode: d.Mode & 0o7777, UID: d.UID, GID: d.GID,
			Known: envobj.Aspects{envobj.AspectExists, envobj.AspectType, envobj.AspectMode, envobj.AspectOwner},
		}})
	}
	switch errno := c.Errno(); {
	case errno == enoent && row.HasPath() && !twoPaths:
		w.see(p1, v, existsObs(c.Seq, false, false))
		return
	case errno == eexist && eff&systable.CreatesPath != 0:
		made := p1
		if twoPaths {
			made = p2
		}
		w.see(made, viewSelf, existsObs(c.Seq, true, false))
		return
	case errno != 0:
		return
	}

	var created, removed, modified string
	if row.CreatedPathArg(c.Args) >= 0 {
		created = p1
		if twoPaths {
			created = p2
		}
	}
	if eff&systable.RemovesPath != 0 {
		removed = p1
	}
	if eff&systable.ModifiesFile != 0 && created != p1 {
		modified = p1
	}
	if removed != "" {
		isDir := eff&systable.ActsOnDirectory != 0 || row.RemovesDirectory(c.Args)
		w.see(removed, viewSelf, existsObs(c.Seq, true, isDir))
	}
	if modified != "" && row.HasPath() {
		w.see(modified, v, existsObs(c.Seq, true, false))
	}
	if p1 != "" && p1 != created && p1 != removed && p1 != modified {
		w.observe(c, row, eff, p1, v)
	}
	for _, p := range []string{created, removed, modified} {
		if p != "" {
			w.change(p, c.Seq, p == created, p == created || p == removed)
		}
	}
}

// observe reads what successful call c shows of p, the path it names
// (or its fd refers to), seen in view v.
func (w *walker) observe(c *trace.Call, row *systable.Syscall, eff systable.Effect, p string, v view) {
	for i, a := range row.Args {
		if a.Kind != systable.OutBuf {
			continue
		}
		m := c.MemOfDir(uint8(i), trace.PartWhole, trace.Out)
		if m != nil && m.Flag&(trace.Fault|trace.Lost|trace.Excluded) != 0 {
			m = nil
		}
		switch is := systable.StructOf(a.Struct).Is; {
		case is == systable.StructStat || is == systable.StructStatx:
			if m != nil {
				if st, ok := systable.DecodeFileStat(w.arch, is, m.Data); ok {
					w.see(p, v, statObs(c.Seq, st))
				}
			}
		case is == systable.StructDirent64 || is == systable.StructDirent:
			w.list(c, row, p, m, is == systable.StructDirent64)
		case a.Holds == systable.HoldsPath && row.OnLink:
			if m != nil && c.Ret > 0 && int(c.Ret) <= len(m.Data) {
				w.see(p, viewSelf, obs{seq: c.Seq, st: envobj.State{
					Exists: true, Type: envobj.TypeSymlink, Target: string(m.Data[:c.Ret]),
					Known: envobj.Aspects{envobj.AspectExists, envobj.AspectType, envobj.AspectTarget},
				}})
			}
		}
	}
	switch {
	case c.Obj == 0:
	case w.file == nil:
		if s, ok := w.pending[c.Obj]; !ok || c.Seq < s {
			w.pending[c.Obj] = c.Seq
		}
	default:
		if f := w.file(c.Obj); f != nil {
			w.used[f.ID] = true
			w.fileAt(c.Seq, f)
		}
	}
	switch {
	case row.OpensDirectory(c.Args) || eff&systable.ActsOnDirectory != 0:
		w.see(p, viewFollow, existsObs(c.Seq, true, true))
	case row.HasPath():
		w.see(p, v, existsObs(c.Seq, true, false))
	}
}

// statObs is what a decoded stat buffer shows.
func statObs(seq uint64, st systable.FileStat) obs {
	o := obs{seq: seq, st: envobj.State{Exists: true, Known: envobj.Aspects{envobj.AspectExists}}}
	if st.Valid&systable.StatType != 0 {
		o.st.Type = typeOf(st.Mode)
		o.st.Known = append(o.st.Known, envobj.AspectType)
	}
	if st.Valid&systable.StatPerm != 0 {
		o.st.Mode = st.Mode & 0o7777
		o.st.Known = append(o.st.Known, envobj.AspectMode)
	}
	if st.Valid&systable.StatOwner != 0 {
		o.st.UID, o.st.GID = st.UID, st.GID
		o.st.Known = append(o.st.Known, envobj.AspectOwner)
	}
	if st.Valid&systable.StatMtime != 0 {
		o.st.MtimeNS = st.MtimeNS
		o.st.Known = append(o.st.Known, envobj.AspectMtime)
	}
	if st.Valid&systable.StatSize != 0 {
		o.st.Size, o.hasSize = st.Size, true
	}
	return o
}

// fileAt observes file object f, met at call seq: its state belongs to
// where its path led (Resolved); the path as named leads there.
func (w *walker) fileAt(seq uint64, f *trace.FileObject) {
	target := fileTarget(f)
	if seq != math.MaxUint64 {
		w.meet(target, seq, true)
	}
	w.see(target, viewFollow, fileObs(seq, f))
	if usable(target) {
		w.rec(target).named = true
	}
	if target != f.Path && usable(f.Path) {
		if r := w.rec(f.Path); r.leadsTo == "" && w.unchanged(r, seq) {
			r.leadsTo, r.named = target, true
		}
	}
}

// namesPath reports whether c names a path by a path argument: one that
// is not empty (an empty path with AT_EMPTY_PATH is the fd's file).
func namesPath(row *systable.Syscall, c *trace.Call) bool {
	for i, a := range row.Args {
		if a.Kind != systable.Path {
			continue
		}
		if m := c.MemOf(uint8(i), trace.PartWhole); m != nil && len(m.Data) > 0 && m.Data[0] != 0 {
			return true
		}
	}
	return false
}

// pathArgs counts a row's path arguments.
func pathArgs(row *systable.Syscall) int {
	n := 0
	for _, a := range row.Args {
		if a.Kind == systable.Path {
			n++
		}
	}
	return n
}
