package depgraph

import "github.com/envbisect/envbisect/systable"

// Action is what one semi-replay run does with a recorded call.
type Action uint8

const (
	// Replay: the call is skipped and its recorded results are written
	// into the process.
	Replay Action = iota + 1
	// Execute: the call runs for real and the program sees its live
	// results.
	Execute
	// ExecuteThenOverwrite: the call runs for real, because a call that
	// executes depends on the kernel state it makes, and then its
	// recorded results are written over the live ones, so the program
	// sees what it would have seen if the call had been replayed.
	ExecuteThenOverwrite
)

var actionNames = [...]string{Replay: "replay", Execute: "execute", ExecuteThenOverwrite: "execute+overwrite"}

func (a Action) String() string {
	if int(a) < len(actionNames) && actionNames[a] != "" {
		return actionNames[a]
	}
	return "unknown"
}

// MarshalText makes an Action print by name in JSON.
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText reads an Action's name.
func (a *Action) UnmarshalText(b []byte) error {
	return unmarshalName(b, actionNames[:], (*uint8)(a), "action")
}

// Reason says why a call is not replayed.
type Reason uint8

const (
	// Requested: the caller asked for the call to be replayed, and it is.
	Requested Reason = iota + 1
	// NotRequested: the caller did not ask for it to be replayed.
	NotRequested
	// Policy: the syscall table says it always executes (memory, process
	// and thread life, signals; calls the table does not know).
	Policy
	// InternalResource: it acts on a pipe, socketpair, connection
	// between traced processes or another resource of the traced tree.
	InternalResource
	// InputResource: it acts on the command's input (stdin, an inherited
	// fd, a connection accepted from an untraced client).
	InputResource
	// NoResult: the call never returned, or returned a restart code the
	// program never sees (interrupted by a signal), so there are no
	// results to write back.
	NoResult
	// Needed: a call that executes depends on it (ExecuteThenOverwrite).
	Needed
	// Incomplete: part of its recorded memory was lost on the way to the
	// trace (an eBPF recording whose ring buffer was full): there are no
	// whole results to write back.
	Incomplete
	// NotServed: an executed call needs only the content of the file the
	// call opened, which a replayed open would hand out from the trace,
	// but the trace does not keep it (excluded, over the budget,
	// unreadable, recorded without content): the open runs for real
	// (ExecuteThenOverwrite), and Plan.Note says why and the remedy.
	NotServed
	// ImageNotStored: an exec whose image a trace that keeps files does
	// not keep (excluded, over the budget, unreadable): it runs whatever
	// the path names here, and Plan.Note says why and the remedy.
	ImageNotStored
)

var reasonNames = [...]string{
	Requested: "requested", NotRequested: "not requested", Policy: "always executes",
	InternalResource: "internal", InputResource: "input", NoResult: "never returned", Needed: "needed",
	Incomplete: "data lost", NotServed: "content not kept", ImageNotStored: "image not stored",
}

func (r Reason) String() string {
	if int(r) < len(reasonNames) && reasonNames[r] != "" {
		return reasonNames[r]
	}
	return "unknown"
}

// ClosureOptions tune Closure.
type ClosureOptions struct {
	// ReplayInput lets calls on the command's input (stdin, accepted
	// connections) be replayed when asked; by default they execute.
	ReplayInput bool
}

// Plan is the action of every call of a trace in one semi-replay run.
type Plan struct {
	g      *Graph
	action []Action
	reason []Reason
	need   []uint32 // ExecuteThenOverwrite: 1 + the position of a call that runs and depends on it (4 bytes a call, a seq is 8)
	notes  map[int32]string
	counts [ExecuteThenOverwrite + 1]int
}

// Closure returns the plan of a run in which the calls for which
// replayed returns true are meant to be replayed: bisect asks for a
// prefix (seq <= k), or for the calls of some groups. It is the thesis'
// check_dep:
//
//  1. A call is replayed if replayed says so, the syscall table's Policy
//     for it is Replayable (or it is an exec whose image the trace stores:
//     systable's ServesImage, BuildOptions.Stored), it returned, its recorded memory is whole
//     (not Incomplete), and it acts on no internal or input resource.
//     Every other call executes.
//  2. Every call that executes needs the calls it depends on (Deps) to
//     have run for real: each of them that step 1 replays becomes
//     ExecuteThenOverwrite, and needs its own dependencies in turn, to
//     the transitive closure. So does a replayed call whose effect is
//     kept (RunsWhenReplayed: a creation, a removal, a write into a
//     file, a chmod ...), which runs live all the same: the open of the
//     fd it writes through (a real open of the real file, not a
//     stand-in), the calls that moved the offset it writes at, the open
//     of the directory it names as its dirfd, the chdir its relative
//     path resolves against, the calls that made its parent directories
//     execute; it stays Replay unless an executed call needs it. So
//     does a replayed bind or listen (SetsUpServer), which package
//     replay runs so that traced clients reach a server: the call that
//     made its socket executes, its fd moved to the recorded number.
//     Except an open whose file the trace keeps (BuildServed), needed
//     only for that file's content (Edge.ContentOnly): replayed, it
//     hands out a stand-in holding the recorded file, which serves the
//     executed call. Where the trace does not keep the file, the open
//     executes (NotServed). A replayed
//     exec whose image is served is left replayed too: it still runs,
//     the recorded image.
//
// The result depends only on the graph and on what replayed returns:
// the same question gets the same plan.
func (g *Graph) Closure(replayed func(seq uint64) bool) *Plan {
	return g.ClosureWith(replayed, ClosureOptions{})
}

// ClosureWith is Closure with options.
func (g *Graph) ClosureWith(replayed func(seq uint64) bool, o ClosureOptions) *Plan {
	if g.Lean() {
		panic("depgraph: the closure of a lean graph, which has no calls (BuildOptions.Lean)")
	}
	// It reads no call: what it needs of each is in its info (flags,
	// obj), so a graph whose calls stay in the trace file plans a run
	// without reading them.
	n := g.seqs.len()
	p := &Plan{g: g, action: make([]Action, n), reason: make([]Reason, n), need: make([]uint32, n)}
	var stack []int32
	for i := range n {
		seq := g.seqs.at(i)
		ci := &g.info[i]
		r := Requested
		switch {
		case !replayed(seq):
			r = NotRequested
		case ci.flags&unserved != 0:
			r = ImageNotStored
			p.note(int32(i), g.imageNote(ci.obj))
		case ci.policy != systable.Replayable && ci.flags&served == 0:
			r = Policy
		case ci.flags&noResult != 0:
			r = NoResult
		case ci.flags&incomplete != 0:
			r = Incomplete
		case ci.class == Internal:
			r = InternalResource
		case ci.class == Input && !o.ReplayInput:
			r = InputResource
		}
		p.reason[i] = r
		if r == Requested {
			p.action[i] = Replay
			if ci.flags&(keepsEffect|setsUpServer) != 0 {
				// It runs all the same: the fd it writes through (the
				// socket it binds or makes listen), its offset, its
				// dirfd, working directory, parent directories and
				// credentials must be real.
				stack = append(stack, int32(i))
			}
			continue
		}
		p.action[i] = Execute
		stack = append(stack, int32(i))
	}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range g.depsOf(i) {
			j := e.to
			if p.action[j] != Replay || g.info[j].flags&served != 0 {
				// A served exec runs, the recorded image: what depends
				// on it holds.
				continue
			}
			why := Needed
			if e.contentOnly {
				served, note := g.serves(j, e.res)
				if served {
					continue // the stand-in holds the recorded file
				}
				if note != "" {
					why = NotServed
					p.note(j, note)
				}
			}
			p.action[j], p.reason[j], p.need[j] = ExecuteThenOverwrite, why, uint32(i)+1
			stack = append(stack, j)
		}
	}
	for _, a := range p.action {
		p.counts[a]++
	}
	return p
}

// Action returns what the run does with call seq. Calls that are not in
// the trace execute.
func (p *Plan) Action(seq uint64) Action {
	if i, ok := p.g.pos(seq); ok {
		return p.action[i]
	}
	return Execute
}

// Reason returns why call seq has its action.
func (p *Plan) Reason(seq uint64) Reason {
	if i, ok := p.g.pos(seq); ok {
		return p.reason[i]
	}
	return NotRequested
}

// NeededBy returns, for a call that executes then is overwritten, a call
// that runs and depends on it (directly): an executed call, or a
// replayed call whose effect is kept (RunsWhenReplayed).
func (p *Plan) NeededBy(seq uint64) (uint64, bool) {
	if i, ok := p.g.pos(seq); ok && p.need[i] != 0 {
		return p.g.seqs.at(int(p.need[i]) - 1), true
	}
	return 0, false
}

// note keeps the note of call i.
func (p *Plan) note(i int32, note string) {
	if p.notes == nil {
		p.notes = make(map[int32]string)
	}
	p.notes[i] = note
}

// Note returns, for a call with reason NotServed or ImageNotStored, why its file cannot be
// served and the record flag that would keep it ("content over the
// recording's budget (record with a larger --max-content)"); "" for
// other calls.
func (p *Plan) Note(seq uint64) string {
	if i, ok := p.g.pos(seq); ok {
		return p.notes[i]
	}
	return ""
}

// NotServed returns the calls with reason NotServed or ImageNotStored
// (the trace lacks the file they needed), in seq order.
func (p *Plan) NotServed() []uint64 {
	var out []uint64
	for i := range p.g.seqs.len() {
		seq := p.g.seqs.at(i)
		if p.reason[i] == NotServed || p.reason[i] == ImageNotStored {
			out = append(out, seq)
		}
	}
	return out
}

// Count returns how many calls have action a.
func (p *Plan) Count(a Action) int {
	if a > ExecuteThenOverwrite {
		return 0
	}
	return p.counts[a]
}

// Actions returns the action of every call, by seq.
func (p *Plan) Actions() map[uint64]Action {
	m := make(map[uint64]Action, len(p.action))
	for i := range p.g.seqs.len() {
		seq := p.g.seqs.at(i)
		m[seq] = p.action[i]
	}
	return m
}
