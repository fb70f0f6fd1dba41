package envdiff

import (
	"path"
	"slices"
	"strings"

	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/trace"
)

// view says which object an observation of a path is about: what the
// path leads to, a symbolic link at its end followed (stat, open), or the
// path itself (lstat, readlink).
type view uint8

const (
	viewFollow view = iota
	viewSelf
	views
)

// obs is one thing the recording shows of a path in the good run, from
// one call (seq): a partial State whose Known says what it gives.
type obs struct {
	seq     uint64
	st      envobj.State
	hasSize bool // st.Size is known (a stat, a file object)
	// file is the file object that holds the content st.SHA256 names;
	// pkg the package that owned the file.
	file *trace.FileObject
	pkg  *trace.Package
}

// statAspects are what a stat shows.
var statAspects = envobj.Aspects{envobj.AspectExists, envobj.AspectType, envobj.AspectMode, envobj.AspectOwner, envobj.AspectMtime}

// The file types of st_mode, the same on every Linux architecture.
const (
	sIFMT  = 0o170000
	sIFREG = 0o100000
	sIFDIR = 0o040000
	sIFLNK = 0o120000
)

// typeOf is the Type of a st_mode.
func typeOf(mode uint32) envobj.Type {
	switch mode & sIFMT {
	case sIFREG:
		return envobj.TypeFile
	case sIFDIR:
		return envobj.TypeDir
	case sIFLNK:
		return envobj.TypeSymlink
	}
	return envobj.TypeOther
}

// existsObs is an observation that the path exists (isDir: as a
// directory), or, with exists false, that it is missing.
func existsObs(seq uint64, exists, isDir bool) obs {
	o := obs{seq: seq, st: envobj.State{Exists: exists, Known: envobj.Aspects{envobj.AspectExists}}}
	if isDir {
		o.st.Type = envobj.TypeDir
		o.st.Known = append(o.st.Known, envobj.AspectType)
	}
	return o
}

// fileObs is what a file object says of the file: its stat when record
// kept it, and its content when record could hash it.
func fileObs(seq uint64, f *trace.FileObject) obs {
	o := obs{seq: seq, hasSize: true, file: f, pkg: f.Package, st: envobj.State{
		Exists: true, Type: typeOf(f.Mode), Mode: f.Mode & 0o7777, UID: f.UID, GID: f.GID,
		Size: f.Size, MtimeNS: f.Mtime, Known: slices.Clone(statAspects),
	}}
	if f.SHA256 != (trace.Hash{}) && f.Why != trace.ContentUnreadable {
		o.st.SHA256 = f.SHA256
		o.st.Known = append(o.st.Known, envobj.AspectContent)
	}
	return o
}

// untimely drops from a file object's observation what record may have
// read after the command changed the file: record names the file at the
// open (type, mode, owner, mtime) but reads its content, and so its
// size, on goroutines of its own a little later. Of a file the command
// went on to change, the content is the good run's only when a stat the
// command made before agrees with its size.
func untimely(o obs, all []obs) obs {
	for _, s := range all {
		if s.file == nil && s.hasSize && s.st.Size == o.st.Size {
			return o
		}
	}
	o.file, o.hasSize, o.st.Size, o.st.SHA256 = nil, false, 0, trace.Hash{}
	o.st.Known = slices.DeleteFunc(slices.Clone(o.st.Known), func(a envobj.Aspect) bool { return a == envobj.AspectContent })
	return o
}

// good is the good run's state of one object, folded from observations.
type good struct {
	st      envobj.State
	hasSize bool
	file    *trace.FileObject
	pkg     *trace.Package
}

// known reports whether any observation said anything.
func (g *good) known() bool { return len(g.st.Known) > 0 }

// fold makes one State of observations: for each aspect the earliest
// observation that gives it (the state before anything changed it). A
// path first seen missing is missing, whatever later calls saw.
func fold(os ...[]obs) good {
	var all []obs
	for _, o := range os {
		all = append(all, o...)
	}
	slices.SortStableFunc(all, func(a, b obs) int {
		switch {
		case a.seq < b.seq:
			return -1
		case a.seq > b.seq:
			return 1
		}
		return 0
	})
	var g good
	has := func(a envobj.Aspect) bool { return g.st.Known.Has(a) }
	for _, o := range all {
		k := o.st.Known
		if k.Has(envobj.AspectExists) && !has(envobj.AspectExists) {
			g.st.Exists = o.st.Exists
			g.st.Known = append(g.st.Known, envobj.AspectExists)
			if !o.st.Exists {
				return g
			}
		}
		if !o.st.Exists {
			continue // a later "missing": the first answer stands
		}
		if !has(envobj.AspectExists) {
			g.st.Exists = true
			g.st.Known = append(g.st.Known, envobj.AspectExists)
		}
		if k.Has(envobj.AspectType) && !has(envobj.AspectType) {
			g.st.Type = o.st.Type
			g.st.Known = append(g.st.Known, envobj.AspectType)
		}
		if k.Has(envobj.AspectMode) && !has(envobj.AspectMode) {
			g.st.Mode = o.st.Mode
			g.st.Known = append(g.st.Known, envobj.AspectMode)
		}
		if k.Has(envobj.AspectOwner) && !has(envobj.AspectOwner) {
			g.st.UID, g.st.GID = o.st.UID, o.st.GID
			g.st.Known = append(g.st.Known, envobj.AspectOwner)
		}
		if k.Has(envobj.AspectMtime) && !has(envobj.AspectMtime) {
			g.st.MtimeNS = o.st.MtimeNS
			g.st.Known = append(g.st.Known, envobj.AspectMtime)
		}
		if o.hasSize && !g.hasSize {
			g.st.Size, g.hasSize = o.st.Size, true
		}
		if k.Has(envobj.AspectContent) && !has(envobj.AspectContent) {
			g.st.SHA256 = o.st.SHA256
			g.st.Known = append(g.st.Known, envobj.AspectContent)
		}
		if k.Has(envobj.AspectTarget) && !has(envobj.AspectTarget) {
			g.st.Target = o.st.Target
			g.st.Known = append(g.st.Known, envobj.AspectTarget)
		}
		if o.file != nil && g.file == nil {
			g.file = o.file
		}
		if o.pkg != nil && g.pkg == nil {
			g.pkg = o.pkg
		}
	}
	g.st.Known = ordered(g.st.Known)
	return g
}

// aspectOrder is the order of Aspects' constants.
var aspectOrder = envobj.Aspects{envobj.AspectExists, envobj.AspectType, envobj.AspectContent, envobj.AspectMode,
	envobj.AspectOwner, envobj.AspectMtime, envobj.AspectTarget, envobj.AspectEntries, envobj.AspectValue}

// ordered is as in the order of the aspects' constants.
func ordered(as envobj.Aspects) envobj.Aspects {
	var out envobj.Aspects
	for _, a := range aspectOrder {
		if as.Has(a) {
			out = append(out, a)
		}
	}
	return out
}

// usable reports whether p names a path of a file system: absolute and
// clean, not an anonymous object ("pipe:[7]"), a memfd or a file deleted
// while open (as /proc names them).
func usable(p string) bool {
	return strings.HasPrefix(p, "/") && path.Clean(p) == p &&
		!strings.HasPrefix(p, "/memfd:") && !strings.HasSuffix(p, " (deleted)")
}

// kernelPath reports whether p is in a file system whose files are the
// kernel's answers (/proc, /sys) or devices (/dev, but for /dev/shm, a
// tmpfs of shared memory and semaphores): inspecting them here says
// nothing of the good run's.
func kernelPath(p string) bool {
	under := func(d string) bool { return p == d || strings.HasPrefix(p, d+"/") }
	return under("/proc") || under("/sys") || under("/dev") && !under("/dev/shm")
}

// linkTarget is where a link at p with target leads (one step, as a
// path, not resolved further).
func linkTarget(p, target string) string {
	if strings.HasPrefix(target, "/") {
		return path.Clean(target)
	}
	return path.Join(path.Dir(p), target)
}
