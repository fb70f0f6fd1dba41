package record

import (
	"fmt"
	"path"
	"slices"
	"sync"

	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// guard is the launch.Observer in front of the batcher: every start
// event and call passes through it on the tracer's side, before anything
// is queued for the file, and it keeps redacted values (secretGuard) and
// excluded content (contentGuard) out of them. Nothing it drops is ever
// written, so no pass over the file afterwards is needed.
type guard struct {
	next    launch.Observer
	table   *systable.Table
	filter  launch.ContentFilter
	secrets *secretGuard
	content *contentGuard // nil without --exclude-content
	warn    func(string)

	mu              sync.Mutex // the eBPF recorder delivers from its own goroutine
	redactedBuffers uint64
	excludedBuffers uint64
}

func newGuard(next launch.Observer, table *systable.Table, exclude []string, policy envPolicy, salt []byte, warn func(string)) (*guard, error) {
	filter, err := launch.NewContentFilter(exclude)
	if err != nil {
		return nil, err
	}
	g := &guard{next: next, table: table, filter: filter, secrets: newSecretGuard(policy, salt), warn: warn}
	if len(exclude) > 0 {
		g.content = newContentGuard()
	}
	return g, nil
}

// Start implements launch.Observer.
func (g *guard) Start(ev []trace.StartEvent) {
	g.mu.Lock()
	ev = g.secrets.redactStart(ev)
	g.mu.Unlock()
	g.next.Start(ev)
}

// Event implements launch.Observer.
func (g *guard) Event(ev trace.Event) {
	if ev.Call != nil {
		g.mu.Lock()
		ev.Call = g.call(ev.Call)
		g.mu.Unlock()
	}
	g.next.Event(ev)
}

// environFile matches the files that show a process's environment.
var environFiles = []string{"/proc/*/environ", "/proc/*/task/*/environ"}

// isEnvironFile reports whether p is a process's environ file.
func isEnvironFile(p string) bool {
	for _, pat := range environFiles {
		if ok, _ := path.Match(pat, p); ok {
			return true
		}
	}
	return false
}

// call returns c with what it must not carry dropped (a copy when
// anything is).
func (g *guard) call(c *trace.Call) *trace.Call {
	row := g.table.ByNr(int(c.Nr))
	g.follow(row, c)
	environ := len(g.secrets.values) > 0 && isEnvironFile(c.Path)
	copied := false
	drop := func(i int, note string, redacted bool) {
		if !copied {
			cc := *c
			cc.Mem = slices.Clone(c.Mem)
			c, copied = &cc, true
		}
		m := &c.Mem[i]
		m.Data, m.Blob, m.Flag, m.Note = nil, nil, m.Flag|trace.Excluded, note
		if redacted {
			g.redactedBuffers++
		} else {
			g.excludedBuffers++
		}
	}
	for i := range c.Mem {
		m := &c.Mem[i]
		if len(m.Data) == 0 || m.Flag&trace.Excluded != 0 {
			continue
		}
		if int(m.Arg) < len(row.Args) && row.Args[m.Arg].Holds == systable.HoldsEnviron && m.Part == trace.PartStrings {
			if data := g.secrets.environBlock(m.Data); data != nil {
				if !copied {
					cc := *c
					cc.Mem = slices.Clone(c.Mem)
					c, copied = &cc, true
				}
				m = &c.Mem[i]
				m.Data, m.Len, m.Blob = data, uint64(len(data)), nil
			}
			continue
		}
		if environ {
			drop(i, "redacted: a process's environment, which holds redacted values", true)
			continue
		}
		if name := g.secrets.carries(m.Data); name != "" {
			drop(i, "redacted: carries the value of "+name, true)
			continue
		}
		if g.content == nil {
			continue
		}
		if file := g.content.carries(m.Data); file != "" {
			drop(i, "excluded: carries content of "+file, false)
			continue
		}
		if m.Dir == trace.In && len(m.Data) < shortest && g.content.tainted[c.Proc] != "" && launch.IsContent(row, m) {
			drop(i, "excluded: written by a process that read "+g.content.tainted[c.Proc]+" (too short to tell whether it carries it)", false)
		}
	}
	return c
}

// follow learns the content of an excluded file a call opened, and
// which processes read or mapped excluded content since their last
// exec.
func (g *guard) follow(row *systable.Syscall, c *trace.Call) {
	if g.content == nil || c.NoReturn || c.Errno() != 0 {
		return
	}
	eff := row.EffectsFor(c.Args)
	if eff&systable.ExecsImage != 0 {
		delete(g.content.tainted, c.Proc)
	}
	if c.Path == "" || !g.filter.Excludes(c.Path) {
		return
	}
	if eff&systable.CreatesFD != 0 {
		if err := g.content.learn(c.PID, c.Path); err != nil && g.warn != nil {
			g.warn(fmt.Sprintf("record: %v; its copies in other buffers are not recognised", err))
		}
	}
	if eff&systable.MapsMemory != 0 {
		g.content.tainted[c.Proc] = c.Path
		return
	}
	for i := range c.Mem {
		if m := &c.Mem[i]; m.Dir == trace.Out && m.Flag&trace.Excluded != 0 && m.Len > 0 {
			g.content.tainted[c.Proc] = c.Path
			return
		}
	}
}

// counts returns the redacted variables and the buffers dropped.
func (g *guard) counts() (names []string, redacted, excluded uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.secrets.redactedNames(), g.redactedBuffers, g.excludedBuffers
}
