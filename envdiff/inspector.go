package envdiff

import (
	"fmt"
	"strings"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// Inspector is Inspect over a trace read as a stream (tracefile.Reader,
// or ReadOptions.Keep): it is given the events one at a time, in order,
// and keeps of them only what inspection needs, per path the small
// state of what the recording showed of it (observations that say the
// same are kept once), never the calls. Its memory grows with the paths
// and file objects a trace names, not with its calls: a loop of a million
// calls on one file costs what one does.
//
// An Inspector is not safe for concurrent use.
type Inspector struct {
	w        *walker
	tunables *tunableReads // the good values of the kernel tunables read
	binds    *binds        // the addresses the good run bound
	kernel   *kernelAnswer // the kernel's names uname answered (kernel.go)
	talk     *peerTalk     // the peers it talked to
	calls    int           // the calls given to Add
}

// NewInspector returns an Inspector of a trace of architecture arch
// (Header.Arch), whose syscall table is table. The file objects the
// calls name (Call.Obj) need not be known as the calls are read: a
// trace's file frames may follow them, and Compare observes each as of
// the first call that named it.
func NewInspector(table *systable.Table, arch string) *Inspector {
	return &Inspector{w: newWalker(table, arch, nil), tunables: newTunableReads(table), binds: newBinds(table), kernel: newKernelAnswer(table), talk: newPeerTalk(table)}
}

// Add reads the trace's next event. The event is not kept, nor is
// anything it points to but the file objects' and paths' strings.
func (in *Inspector) Add(ev *trace.Event) {
	in.w.add(ev)
	in.tunables.add(ev)
	in.binds.add(ev)
	in.kernel.add(ev)
	in.talk.add(ev)
	if ev.Call != nil {
		in.calls++
	}
}

// Bound is what BoundAddresses gives of the events the Inspector was
// given: the addresses the good run bound.
func (in *Inspector) Bound() []envobj.Address { return in.binds.out }

// Peers is what Peers gives of the events the Inspector was given: the
// peers the good run talked to, with their conversations.
func (in *Inspector) Peers() []envobj.Peer { return in.talk.peers(in.binds.out) }

// Calls is how many calls the Inspector was given.
func (in *Inspector) Calls() int { return in.calls }

// Compare compares every object the events read showed with its state
// here, under root, as Inspect does; files are all the trace's file
// objects (a Reader's Files once it has read the last event). It is
// called once, after the last Add.
func (in *Inspector) Compare(files []trace.FileObject, root string, opts Options) (*Diff, error) {
	if opts.MaxHash == 0 {
		opts.MaxHash = DefaultMaxHash
	}
	in.w.finish(files)
	fs, err := openRoot(root)
	if err != nil {
		return nil, fmt.Errorf("inspect %s: %w", root, err)
	}
	defer fs.close()
	c := newComparer(in.w.recs, fs, opts)
	c.values = in.tunables.values()
	c.compareAll()
	d := c.diff()
	d.Kernel = in.kernel.differ(opts.KernelHere)
	return d, nil
}

// DataUsed is the ReadOptions.KeepData of a trace read for an
// Inspector: the bytes inspection reads are those of the buffers a call
// gives back that hold a stat, a directory listing or a link's target,
// the paths a call names, and what a call on a socket sent or received
// (a peer's conversation); the rest (the contents of files read and
// written) are left in the trace file.
func DataUsed(table *systable.Table) func(c *trace.Call, m *trace.Mem) bool {
	return func(c *trace.Call, m *trace.Mem) bool {
		row := table.ByNr(int(c.Nr))
		if row == nil || int(m.Arg) >= len(row.Args) {
			return true
		}
		a := row.Args[m.Arg]
		if a.Kind == systable.Path {
			return true // namesPath reads whether it is empty
		}
		if row.ReadsData && m.Dir == trace.Out && envobj.TunablePath(c.Path) {
			return true // a tunable's good value (tunableReads)
		}
		if row.EffectsFor(c.Args)&(systable.BindsAddress|systable.ConnectsAddress) != 0 && int(m.Arg) == row.AddressArg(false) {
			return true // the address a bind bound (binds), or a connect reached (peerTalk)
		}
		if strings.HasPrefix(c.Path, "socket:") && depgraph.IsEchoData(row, m) {
			return true // what the command said to a peer and heard (peerTalk)
		}
		if isKernelNames(row, m) {
			return true // the kernel's names (kernelAnswer)
		}
		if a.Kind != systable.OutBuf || m.Dir != trace.Out {
			return false
		}
		switch systable.StructOf(a.Struct).Is {
		case systable.StructStat, systable.StructStatx, systable.StructDirent64, systable.StructDirent:
			return true
		}
		return a.Holds == systable.HoldsPath && row.OnLink
	}
}
