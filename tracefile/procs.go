package tracefile

import (
	"fmt"

	"github.com/envbisect/envbisect/trace"
)

// procTable is what a reader or writer knows of a trace's processes so
// far, to check that its process events are consistent: a process event
// other than a spawn or an exec names a process an earlier event
// introduced, a spawn's parent is such a process, and a process is
// spawned once. (A kind it does not know is let through, as unknown keys
// are: a later writer's.) Both recorders announce every
// process with a spawn before anything else of it; an exec may introduce
// one too (traces made by tools and tests start with the first process's
// exec), and so may a call (a call names its process without any
// announcement in synthetic traces). It holds one small entry per
// process.
type procTable struct {
	seen map[uint32]procSeen
	last uint32 // the process of the last call, known
	// undo, when log is set, lists the entries changed since the last
	// commit, for a writer to take back a batch it refuses.
	log  bool
	undo []procUndo
}

// procSeen says how a process was introduced.
type procSeen uint8

const (
	procNamed   procSeen = 1 << iota // an event named it
	procSpawned                      // a spawn event introduced it
)

type procUndo struct {
	id  uint32
	old procSeen
}

// check checks ev against the processes introduced so far and takes it
// in.
func (t *procTable) check(ev *trace.Event) error {
	if t.seen == nil {
		t.seen = make(map[uint32]procSeen)
	}
	if c := ev.Call; c != nil {
		if c.Proc != t.last || t.seen[c.Proc] == 0 {
			t.mark(c.Proc, procNamed)
			t.last = c.Proc
		}
		return nil
	}
	e := ev.Proc
	if e == nil {
		return nil
	}
	switch e.Kind {
	case trace.Spawn:
		if t.seen[e.Proc]&procSpawned != 0 {
			return fmt.Errorf("a second spawn event of process %d (after seq %d)", e.Proc, e.Seq)
		}
		if e.Parent != 0 && t.seen[e.Parent] == 0 {
			return fmt.Errorf("the spawn event of process %d (after seq %d) names parent process %d, which no earlier event names", e.Proc, e.Seq, e.Parent)
		}
		t.mark(e.Proc, procNamed|procSpawned)
	case trace.Exec:
		t.mark(e.Proc, procNamed)
	case trace.SpawnThread, trace.ExitThread, trace.Exit:
		if t.seen[e.Proc] == 0 {
			return fmt.Errorf("the %s event of process %d (after seq %d) names a process no earlier event names: no spawn, exec or call of it comes before",
				procKindName(e.Kind), e.Proc, e.Seq)
		}
	}
	return nil
}

// mark adds f to what is known of process id.
func (t *procTable) mark(id uint32, f procSeen) {
	old := t.seen[id]
	if old|f == old {
		return
	}
	if t.log {
		t.undo = append(t.undo, procUndo{id, old})
	}
	t.seen[id] = old | f
}

// commit keeps what was taken in since the last commit or rollback.
func (t *procTable) commit() { t.undo = t.undo[:0] }

// rollback forgets what was taken in since the last commit.
func (t *procTable) rollback() {
	for i := len(t.undo) - 1; i >= 0; i-- {
		u := t.undo[i]
		if u.old == 0 {
			delete(t.seen, u.id)
		} else {
			t.seen[u.id] = u.old
		}
	}
	t.undo = t.undo[:0]
	t.last = 0
}

// procKindName names a process event's kind as docs/trace-format.md does.
func procKindName(k trace.ProcKind) string {
	switch k {
	case trace.Spawn:
		return "spawn"
	case trace.SpawnThread:
		return "spawn thread"
	case trace.Exec:
		return "exec"
	case trace.ExitThread:
		return "thread exit"
	case trace.Exit:
		return "exit"
	}
	return fmt.Sprintf("kind %d", k)
}
