package depgraph

import (
	"cmp"
	"path"
	"slices"
	"strconv"

	"github.com/envbisect/envbisect/systable"
)

// finish decides what only the whole trace tells: which paths are
// directories, whose each resource is, the groups, and each call's class.
func (b *builder) finish() {
	for p := range b.paths {
		for a := path.Dir(p); ; a = path.Dir(a) {
			if n := b.paths[a]; n != nil {
				n.dir = true
			}
			if a == "/" || a == "." {
				break
			}
		}
	}
	for _, d := range b.inherited {
		if d.res.Path != "" {
			d.res.setMore().name += " (" + d.res.Path + ")"
		}
	}
	b.classify()
	b.findEchoes()
	b.findDNS()
	b.onSockets = nil
	b.group()
	for i := range b.g.info {
		ci := &b.g.info[i]
		slices.SortFunc(b.g.depsOf(int32(i)), func(x, y depEdge) int { return cmp.Compare(x.to, y.to) })
		var cls Class
		for _, id := range b.g.actsOf(int32(i)) {
			cls = stronger(cls, b.g.Resource(id).Class)
		}
		if cls == 0 {
			cls = b.g.Group(ci.group).Class
		}
		ci.class = cls
	}
	b.g.trim()
}

// trim lets go of the room that growing the graph's lists left in them
// (up to a quarter of each at a million calls): the graph is not changed
// after it is finished, and call-level runs hold it while their own
// memory peaks.
func (g *Graph) trim() {
	g.seqs.trim()
	g.calls = trimmed(g.calls)
	g.paths = trimmed(g.paths)
	g.edgeList = trimmed(g.edgeList)
	g.actList = trimmed(g.actList)
	g.info = trimmed(g.info)
	g.resources = trimmed(g.resources)
	g.groups = trimmed(g.groups)
	for _, gr := range g.groups {
		gr.Calls = trimmed(gr.Calls)
		gr.Resources = trimmed(gr.Resources)
	}
}

// trimmed returns s, in an array of its length when the one it is in
// has more than an eighth of room left; an empty s is returned as it is.
func trimmed[S ~[]E, E any](s S) S {
	if len(s) == 0 || cap(s)-len(s) <= len(s)/8 {
		return s
	}
	return append(S(nil), s...)
}

// classify gives every resource its class.
func (b *builder) classify() {
	b.classifySockets()
	for _, r := range b.g.resources {
		switch r.Kind {
		case File, Path:
			if n := b.paths[r.Path]; n != nil && n.fifo {
				r.Class = Internal // a FIFO made in the trace: the traced processes talk through it
			}
		}
	}
	for _, d := range b.epolls {
		// An epoll set is as much the program's own as the fds it
		// watches: waiting on a pipe must run for real.
		c := Environment
		for _, w := range d.watched {
			c = stronger(c, w.res.Class)
		}
		d.res.Class = c
	}
	for _, r := range b.g.resources {
		switch {
		case r.Kind == Mapping:
			r.Class = b.descs[r.ID].res.Class
		case r.Class == 0:
			r.Class = Environment
		}
	}
}

// groupKey identifies a group.
type groupKey struct {
	kind GroupKind
	name string
}

// resourceGroup returns the group of r's calls; false for resources
// whose calls are grouped by another resource or by process.
func (b *builder) resourceGroup(r *Resource) (groupKey, bool) {
	switch r.Kind {
	case File, Path:
		if n := b.paths[r.Path]; n != nil && n.dir {
			return groupKey{GroupDirectory, r.Path}, true
		}
		return groupKey{GroupFile, r.Path}, true
	case Mapping:
		return b.resourceGroup(b.descs[r.ID].res)
	case Pipe:
		return groupKey{GroupPipe, r.Name()}, true
	case SocketPair:
		return groupKey{GroupSocketPair, r.Name()}, true
	case Socket:
		k, n := sockGroup(b.descs[r.ID])
		return groupKey{k, n}, true
	case Epoll:
		return groupKey{GroupEpoll, r.Name()}, true
	case AnonFD:
		return groupKey{GroupFD, r.Name()}, true
	case Inherited:
		return groupKey{GroupStdio, r.Name()}, true
	}
	return groupKey{}, false
}

// callGroup returns the group of call i.
func (b *builder) callGroup(i int) groupKey {
	if id := b.g.info[i].primary; id != 0 {
		if k, ok := b.resourceGroup(b.g.Resource(id)); ok {
			return k
		}
	}
	ci := &b.g.info[i]
	row := b.tab.ByNr(int(ci.nr))
	label := strconv.FormatUint(uint64(ci.proc), 10)
	if p := b.procs[ci.proc]; p != nil && p.exe != "" {
		label += " (" + p.exe + ")"
	}
	switch {
	case row.Unknown:
		return groupKey{GroupKernel, row.Name}
	case row.Effects&systable.MapsMemory != 0:
		return groupKey{GroupMemory, label}
	case row.Policy == systable.AlwaysExecute:
		return groupKey{GroupProcess, label}
	}
	return groupKey{GroupKernel, row.Name}
}

// group puts every call in its group, numbering groups by first call.
// Each group's list of calls is made at its size, counted first: grown
// call by call, the group of cloop's file (a million calls) held both
// arrays at each growth and up to a quarter of room at the end.
func (b *builder) group() {
	byKey := make(map[groupKey]*Group)
	var count []int // calls per group, by GroupID-1
	for i := range b.g.seqs.len() {
		k := b.callGroup(i)
		g, ok := byKey[k]
		if !ok {
			g = &Group{ID: GroupID(len(b.g.groups) + 1), Kind: k.kind, Name: k.name}
			switch k.kind {
			case GroupProcess, GroupMemory:
				g.Class = Internal
			case GroupKernel:
				g.Class = Environment
			}
			byKey[k] = g
			b.g.groups = append(b.g.groups, g)
			count = append(count, 0)
		}
		count[g.ID-1]++
		b.g.info[i].group = g.ID
	}
	for i := range b.g.seqs.len() {
		seq := b.g.seqs.at(i)
		g := b.g.groups[b.g.info[i].group-1]
		if g.Calls == nil {
			g.Calls = make([]uint64, 0, count[g.ID-1])
		}
		g.Calls = append(g.Calls, seq)
	}
	for _, r := range b.g.resources {
		k, ok := b.resourceGroup(r)
		if !ok {
			continue
		}
		if g, ok := byKey[k]; ok {
			if d := b.descs[r.ID]; k.kind == GroupDNS && d != nil && d.sock != nil && d.sock.dns != nil {
				g.Questions = len(d.sock.dns.questions)
			}
			r.Group = g.ID
			g.Resources = append(g.Resources, r.ID)
			g.Class = stronger(g.Class, r.Class)
		}
	}
	for _, g := range b.g.groups {
		if g.Class == 0 {
			g.Class = Environment
		}
	}
}
