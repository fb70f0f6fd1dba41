package bisect

import (
	"cmp"
	"errors"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/envbisect/envbisect/pkgdb"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// explain gathers what the recording and the failing run (live, by
// recorded seq) show about cu's resource (render.Facts) and writes its
// explanation (render.Explain). It is a function of one culprit: each
// cause a report names is explained the same way.
func (s *search) explain(cu *Culprit, atLo map[uint64]*trace.Call) {
	cu.Facts = nil
	if cu.Start != nil {
		if ps := s.pathPrograms(cu.Start); len(ps) > 0 {
			cu.Facts = &render.Facts{Programs: ps}
		}
	}
	if cu.Start == nil && !cu.Here.Missing {
		live := s.hereLive(atLo)
		f := &render.Facts{}
		switch cu.Here.Errno {
		case "ENOENT":
			if cu.Path != "" {
				f.Missing = s.missingComponent(cu, live)
				f.Package = s.packageOwners(cu)
			}
		case "EACCES", "EPERM":
			if cu.Path != "" {
				f.Paths = s.pathStats(cu, live)
			}
			f.RanAs = s.ranAs(cu.Seq)
			f.Umask = s.umaskItem(cu.Seq)
		case "EADDRINUSE":
			f.Holder = s.addressHolder(cu.Seq)
		case "":
			f.Paths = s.ownStat(cu, live)
			f.Package = s.packageOwners(cu)
			f.Link = s.linkTargets(cu)
		}
		if cu.Here.Errno == "" && cu.Good.Errno == "ENOENT" && cu.Path != "" {
			if good := s.ranInstead(cu.Path, cu.Seq); good != "" {
				f.Hides = &render.ProgramLookup{Name: path.Base(cu.Path), Here: cu.Path, Good: good}
			}
		}
		if f.Missing != nil || len(f.Paths) > 0 || f.RanAs != nil || f.Umask != nil || f.Holder != nil || f.Package != nil || f.Link != nil || f.Hides != nil {
			cu.Facts = f
		}
	}
	cu.Explanation = render.Explain(cu)
}

// addressHolder is, for call seq that passes an IP address to the
// kernel (a bind), the process that holds that address here, looked up
// by Options.AddressHolder once the runs have ended; nil when the call
// passes no IP address.
func (s *search) addressHolder(seq uint64) *render.AddressHolder {
	c, ok := s.g.Call(seq)
	if !ok {
		return nil
	}
	row := s.rows().ByNr(int(c.Nr))
	arg := row.AddressArg(false)
	if arg < 0 {
		return nil
	}
	var addr systable.Sockaddr
	for i := range c.Mem {
		if m := &c.Mem[i]; m.Dir == trace.In && int(m.Arg) == arg && m.Part == trace.PartWhole {
			addr, ok = systable.DecodeSockaddr(m.Data)
		}
	}
	if !ok || !addr.IP.IsValid() {
		return nil
	}
	h := &render.AddressHolder{Address: addr.String(),
		FoundBy: "locate after the runs, in this environment's network namespace (the failing run had ended; " +
			"a process outside the runs held the address then)"}
	if s.o.AddressHolder == nil {
		h.FoundBy, h.Why = "", "not looked up"
		return h
	}
	pid, exe, err := s.o.AddressHolder(addr.IP)
	if err != nil {
		h.Why = err.Error()
		return h
	}
	h.PID, h.Exe = pid, exe
	return h
}

// hereLive is the live calls of the failing run atLo, completed with
// those of the fail end (the run with nothing replayed, where every call
// executed): what a call answered here, by recorded seq, even when the
// failing run next to the culprit replayed it.
func (s *search) hereLive(atLo map[uint64]*trace.Call) map[uint64]*trace.Call {
	d, ok := s.ends[Request{}.key()]
	if !ok || len(d.out.Live) == 0 {
		return atLo
	}
	out := make(map[uint64]*trace.Call, len(atLo)+len(d.out.Live))
	for q, c := range d.out.Live {
		out[q] = c
	}
	for q, c := range atLo {
		out[q] = c
	}
	return out
}

// prefixes are p's parent directories, deepest first, "/" left out.
func prefixes(p string) []string {
	var out []string
	for d := path.Dir(p); d != "/" && d != "." && d != p; d = path.Dir(d) {
		out = append(out, d)
		p = d
	}
	return out
}

// missingComponent says which component of cu's path is missing here,
// from the calls on the path and its parents before it: in the failing
// run, a call that succeeded on a path shows its parents present, one
// that failed with ENOENT on exactly a path shows something of it
// missing; in the recording, a call that succeeded shows them present.
func (s *search) missingComponent(cu *Culprit, live map[uint64]*trace.Call) *render.MissingComponent {
	p := cu.Path
	existsHere := map[string]bool{}
	enoentHere := map[string]uint64{p: cu.Seq}
	existedGood := map[string]bool{}
	for c := range s.g.AllCalls() {
		if c.Seq > cu.Seq {
			break
		}
		q := c.Path
		if q == "" || !strings.HasPrefix(q, "/") {
			continue
		}
		if c.Seq < cu.Seq && !c.NoReturn && c.Errno() == 0 {
			for d := path.Dir(q); ; d = path.Dir(d) {
				existedGood[d] = true
				if d == "/" || d == "." {
					break
				}
			}
			if s.rows().ByNr(int(c.Nr)).EffectsFor(c.Args)&systable.CreatesPath == 0 {
				existedGood[q] = true
			}
		}
		l := live[c.Seq]
		if l == nil || l.NoReturn {
			continue
		}
		switch e := l.Errno(); {
		case e == 0 && c.Seq < cu.Seq:
			for d := path.Dir(q); ; d = path.Dir(d) {
				existsHere[d] = true
				if d == "/" || d == "." {
					break
				}
			}
		case errnoName(e) == "ENOENT":
			if _, seen := enoentHere[q]; !seen || c.Seq < enoentHere[q] {
				enoentHere[q] = c.Seq
			}
		}
	}
	if cu.Good.Errno == "" {
		for _, d := range prefixes(p) {
			existedGood[d] = true
		}
		// The culprit itself found its path in the good run (an open,
		// an exec, a stat that succeeded), unless it may have created
		// it there (O_CREAT, mkdir).
		if c, ok := s.g.Call(cu.Seq); ok && !c.NoReturn && s.rows().ByNr(int(c.Nr)).EffectsFor(c.Args)&systable.CreatesPath == 0 {
			existedGood[p] = true
		}
	}
	for d := range s.recordedDirs(cu.Seq) {
		existedGood[d] = true
	}
	// The shallowest component not known to exist here whose parent is.
	chain := append([]string{p}, prefixes(p)...)
	for i := len(chain) - 1; i >= 0; i-- {
		q := chain[i]
		if existsHere[q] {
			continue
		}
		if !existsHere[path.Dir(q)] && path.Dir(q) != "/" {
			break // nothing known about q's parent: the component cannot be told
		}
		seq, gone := enoentHere[q]
		if !gone {
			break
		}
		return &render.MissingComponent{Path: q, Known: true, Seq: seq, ExistedInGood: existedGood[q]}
	}
	if m := s.missingAfterRuns(chain, existsHere); m != nil {
		m.ExistedInGood = existedGood[m.Path]
		return m
	}
	return &render.MissingComponent{Path: p, ExistedInGood: existedGood[p]}
}

// missingAfterRuns is the shallowest component of chain (a path, then
// its parents, deepest first) that the environment the runs saw lacks,
// as Options.StatHere finds it after them, where no call of the failing
// run told: its parent exists (a call showed it, or StatHere finds it),
// it does not. nil when StatHere is not given or cannot tell. The runs
// changed a throwaway copy, so what StatHere sees is what they started
// from.
func (s *search) missingAfterRuns(chain []string, existsHere map[string]bool) *render.MissingComponent {
	if s.o.StatHere == nil {
		return nil
	}
	for i := len(chain) - 1; i >= 0; i-- {
		q := chain[i]
		if existsHere[q] {
			continue
		}
		_, _, _, err := s.o.StatHere(q)
		switch {
		case err == nil:
			continue
		case errors.Is(err, fs.ErrNotExist):
			return &render.MissingComponent{Path: q, Known: true, AfterRuns: true}
		}
		return nil
	}
	return nil
}

// recordedDirs are the parent directories record stat'ed for the calls
// up to seq (Call.Dirs), by path, as first stat'ed: each existed in the
// good run.
func (s *search) recordedDirs(seq uint64) map[string]trace.DirStat {
	out := map[string]trace.DirStat{}
	for c := range s.g.AllCalls() {
		if c.Seq > seq {
			break
		}
		for _, d := range c.Dirs {
			if _, ok := out[d.Path]; !ok {
				out[d.Path] = d
			}
		}
	}
	return out
}

// pathStats are cu's path and its parents as the stat calls (a struct
// stat or statx out-buffer) on them before it showed them, in the
// recording and in the failing run, deepest first. A parent no stat call
// showed is completed from the directories record stats (Call.Dirs) for
// the good run and from Options.StatHere for here; paths neither shows
// are left out.
func (s *search) pathStats(cu *Culprit, live map[uint64]*trace.Call) []render.PathStat {
	chain := append([]string{cu.Path}, prefixes(cu.Path)...)
	seen := map[string]*render.PathStat{}
	dirs := s.recordedDirs(cu.Seq)
	for c := range s.g.AllCalls() {
		if c.Seq >= cu.Seq {
			break
		}
		if c.Path == "" {
			continue
		}
		if good, ok := s.fileStat(c); ok {
			ps := seen[c.Path]
			if ps == nil {
				ps = &render.PathStat{Path: c.Path}
				seen[c.Path] = ps
			}
			ps.Good = good
			if l := live[c.Seq]; l != nil {
				if here, ok := s.fileStat(l); ok {
					here.Seq = c.Seq
					ps.Here = here
				}
			}
		}
	}
	for _, q := range chain[1:] {
		ps := seen[q]
		if ps == nil {
			ps = &render.PathStat{Path: q}
		}
		if d, ok := dirs[q]; ok && ps.Good == nil {
			ps.Good = &render.FileStat{From: "record", Mode: d.Mode, UID: d.UID, GID: d.GID}
		}
		if ps.Here == nil && ps.Good != nil {
			ps.Here = s.statHere(q)
		}
		if ps.Good != nil || ps.Here != nil {
			seen[q] = ps
		}
	}
	var out []render.PathStat
	for _, q := range chain {
		if ps := seen[q]; ps != nil {
			out = append(out, *ps)
		}
	}
	return out
}

// statHere is directory dir as Options.StatHere finds it in the
// environment the runs saw, after them; nil when it cannot tell.
func (s *search) statHere(dir string) *render.FileStat {
	if s.o.StatHere == nil {
		return nil
	}
	const from = "locate after the runs"
	mode, uid, gid, err := s.o.StatHere(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &render.FileStat{From: from, Missing: true}
	case err != nil:
		return nil
	}
	return &render.FileStat{From: from, Mode: mode, UID: uid, GID: gid}
}

// packageOwners is, for a culprit on a file the good run opened or ran
// whose owner record looked up (in an environment with a package
// database), that owner and the one here. That no package owns it on
// either side is said of a program or a library only (installed by hand
// or built): record looks up every file, and of a configuration or data
// file it says nothing.
func (s *search) packageOwners(cu *Culprit) *render.PackageOwners {
	obj := s.goodObject(cu)
	if obj == nil || obj.Package == nil {
		return nil
	}
	po := &render.PackageOwners{Path: cu.Path, Good: obj.Package}
	if s.o.PackageOwner == nil {
		po.HereWhy = "not looked up"
		return po
	}
	here, err := s.o.PackageOwner(cu.Path, obj.Resolved)
	if err != nil {
		po.HereWhy = err.Error()
	}
	po.Here = here
	if here != nil && here.Name == "" && obj.Package.Name == "" && !pkgdb.ProgramOrLibrary(obj.Path, obj.Mode) {
		return nil
	}
	return po
}

// goodObject is the file object the recording kept of cu's file: the
// one its call opened or ran, else the first one a call on its path did.
func (s *search) goodObject(cu *Culprit) *trace.FileObject {
	if s.o.Files == nil || cu.Path == "" {
		return nil
	}
	if c, ok := s.g.Call(cu.Seq); ok && c.Obj != 0 {
		return s.o.Files(c.Obj)
	}
	for c := range s.g.AllCalls() {
		if c.Obj != 0 && c.Path == cu.Path {
			return s.o.Files(c.Obj)
		}
	}
	return nil
}

// ownStat is, for a culprit that stat'ed its path in both runs and saw
// another mode, owner or group here, that path on both sides.
func (s *search) ownStat(cu *Culprit, live map[uint64]*trace.Call) []render.PathStat {
	rec, ok := s.g.Call(cu.Seq)
	if !ok || live[cu.Seq] == nil || cu.Good.Errno != "" {
		return nil
	}
	good, ok1 := s.fileStat(rec)
	here, ok2 := s.fileStat(live[cu.Seq])
	if !ok1 || !ok2 || good.String() == here.String() {
		return nil
	}
	here.Seq = cu.Seq
	return []render.PathStat{{Path: cu.Path, Good: good, Here: here}}
}

// fileStat is what call c's stat buffer shows (mode, owner, group), or
// that it failed with ENOENT; ok false when c fills no stat.
func (s *search) fileStat(c *trace.Call) (*render.FileStat, bool) {
	row := s.rows().ByNr(int(c.Nr))
	if row == nil {
		return nil, false
	}
	for i, a := range row.Args {
		st := systable.StructOf(a.Struct)
		var mode, uid, gid systable.Field
		switch st.Is {
		case systable.StructStat:
			arch := "amd64"
			if s.o.Header != nil && s.o.Header.Arch != "" {
				arch = s.o.Header.Arch
			}
			lay, ok := systable.StatStruct(arch)
			if !ok {
				continue
			}
			mode, uid, gid = lay.Field("st_mode"), lay.Field("st_uid"), lay.Field("st_gid")
		case systable.StructStatx:
			mode, uid, gid = st.Field("stx_mode"), st.Field("stx_uid"), st.Field("stx_gid")
		default:
			continue
		}
		if c.NoReturn {
			return nil, false
		}
		if errnoName(c.Errno()) == "ENOENT" {
			return &render.FileStat{Seq: c.Seq, Missing: true}, true
		}
		if c.Errno() != 0 {
			return nil, false
		}
		for j := range c.Mem {
			m := &c.Mem[j]
			if m.Dir != trace.Out || int(m.Arg) != i || m.Part != trace.PartWhole {
				continue
			}
			b := m.Data
			if len(b) < mode.Off+mode.Size || len(b) < uid.Off+uid.Size || len(b) < gid.Off+gid.Size {
				return nil, false
			}
			return &render.FileStat{Seq: c.Seq, Mode: uint32(mode.Uint(b)), UID: uint32(uid.Uint(b)), GID: uint32(gid.Uint(b))}, true
		}
	}
	return nil, false
}

// ranAs is who the command started as: the credentials start items of
// the recording (good) and of here, when the caller gave them; and the
// recorded calls before call seq by which its process, or an ancestor
// before it forked the next one down, changed its ids or capabilities
// (systable's ChangesCreds): a process inherits its parent's ids.
func (s *search) ranAs(seq uint64) *render.Creds {
	var r render.Creds
	if cu, ok := s.g.Call(seq); ok {
		inherits := s.credsLineage(cu.Proc, seq)
		for c := range s.g.AllCalls() {
			if c.Seq >= seq {
				break
			}
			if last, ok := inherits[c.Proc]; ok && c.Seq <= last && !c.NoReturn && c.Errno() == 0 &&
				s.rows().ByNr(int(c.Nr)).Effects&systable.ChangesCreds != 0 {
				r.Changed = append(r.Changed, "call "+strconv.FormatUint(c.Seq, 10)+" "+callString(s.rows(), c))
			}
		}
	}
	r.GoodUID, r.GoodGID = startIDs(s.o.Recorded)
	r.UID, r.GID = startIDs(s.o.Here)
	if r.UID == "" && len(r.Changed) == 0 {
		return nil
	}
	return &r
}

// credsLineage maps proc and its ancestors to the last recorded call
// whose effect on the ids proc inherits: proc's own calls before seq,
// each parent's up to the fork of the child on the way down.
func (s *search) credsLineage(proc uint32, seq uint64) map[uint32]uint64 {
	type spawn struct {
		parent uint32
		at     uint64
	}
	spawns := map[uint32]spawn{}
	s.o.eachEvent(func(ev *trace.Event) bool {
		if ev.Call != nil && ev.Call.Seq >= seq {
			return false
		}
		if e := ev.Proc; e != nil && e.Kind == trace.Spawn && e.Parent != 0 {
			spawns[e.Proc] = spawn{e.Parent, e.Seq}
		}
		return true
	})
	out := map[uint32]uint64{proc: seq - 1}
	for p := proc; len(out) <= len(spawns); {
		sp, ok := spawns[p]
		if _, seen := out[sp.parent]; !ok || seen {
			break
		}
		out[sp.parent] = sp.at
		p = sp.parent
	}
	return out
}

// umaskItem is the umask start item, when it differs here and call seq
// may create what it names (its mode is the umask's to decide).
func (s *search) umaskItem(seq uint64) *render.StartItem {
	c, ok := s.g.Call(seq)
	if !ok || s.rows().ByNr(int(c.Nr)).Effects&systable.CreatesPath == 0 {
		return nil
	}
	for i := range s.o.Start {
		if s.o.Start[i].Kind == string(trace.StartUmask) {
			it := s.o.Start[i]
			return &it
		}
	}
	return nil
}

// startIDs returns the uid and gid among the credentials start items of
// events ("" where there is none).
func startIDs(events []trace.StartEvent) (uid, gid string) {
	for _, e := range events {
		if e.Kind != trace.StartCreds {
			continue
		}
		switch e.Name {
		case trace.CredsUID:
			uid = e.Value
		case trace.CredsGID:
			gid = e.Value
		}
	}
	return uid, gid
}

// linkTargets is, for a culprit on a file the trace keeps whose path
// led elsewhere in the good run than here (a symbolic link switched to
// another version), both targets; nil when they are the same, or either
// is not known.
func (s *search) linkTargets(cu *Culprit) *render.LinkTargets {
	obj := s.goodObject(cu)
	if obj == nil || s.o.ResolveHere == nil {
		return nil
	}
	good := cmp.Or(obj.Resolved, obj.Path)
	here, err := s.o.ResolveHere(obj.Path)
	if err != nil || here == good || (good == obj.Path && here == obj.Path) {
		return nil
	}
	return &render.LinkTargets{Path: obj.Path, Good: good, Here: here}
}
