package depgraph

import (
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
)

// An exec whose image the trace stores is a candidate like any
// replayable call, and stays replayed when later executed calls of the
// new image depend on it; one whose image is not stored executes, and the
// plan says why.
func TestServedExec(t *testing.T) {
	for _, tc := range []struct {
		name   string
		obj    uint32
		stored bool
		want   Action
		why    Reason
	}{
		{"image stored", 7, true, Replay, Requested},
		{"image not stored", 7, false, Execute, ImageNotStored},
		{"no image recorded", 0, true, Execute, ImageNotStored},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newTB(t)
			b.spawn("fork", 1, 2, 0)
			b.do("exec", 2, "execve", 0, []uint64{0x1000, 0x2000, 0x3000}, named("/usr/bin/helper", "/usr/bin/helper"),
				func(_ *tracetest.Builder, _ *systable.Syscall, c *trace.Call) { c.Obj = tc.obj })
			b.do("brk", 2, "brk", 0x5000, []uint64{0})
			b.openat("open", 2, "/etc/helper.conf", "/etc/helper.conf", 0, 3)
			why := ""
			if !tc.stored {
				why = trace.ContentExcluded
			}
			files := imageFiles{7: {ID: 7, Path: "/usr/bin/helper", Mode: unix.S_IFREG | 0o755, Size: 3, Chunks: []trace.Hash{{1}}, Why: why}}
			g, err := BuildServed(b.Table, &trace.Header{Arch: "amd64"}, b.Events, files)
			if err != nil {
				t.Fatal(err)
			}
			p := g.Closure(func(uint64) bool { return true })
			exec := b.l("exec")
			if got := p.Action(exec); got != tc.want {
				t.Errorf("exec: %s (%s), want %s", got, p.Reason(exec), tc.want)
			}
			if got := p.Reason(exec); got != tc.why {
				t.Errorf("exec: reason %s, want %s", got, tc.why)
			}
			if note := p.Note(exec); (tc.why == ImageNotStored) != (note != "") || tc.obj != 0 && !tc.stored && !strings.Contains(note, "--exclude-content") {
				t.Errorf("exec: note %q", note)
			}
			if got := p.Action(b.l("brk")); got != Execute {
				t.Errorf("brk after the exec: %s, want execute", got)
			}
			checkPlan(t, g, p)
		})
	}
}

// imageFiles are a trace's file objects, by ID.
type imageFiles map[uint32]*trace.FileObject

func (f imageFiles) File(id uint32) *trace.FileObject { return f[id] }

// A trace without file objects (format version 1) executes its execs,
// as before, with the table's reason.
func TestExecWithoutFiles(t *testing.T) {
	b := newTB(t)
	b.spawn("fork", 1, 2, 0)
	b.do("exec", 2, "execve", 0, []uint64{0x1000, 0x2000, 0x3000}, named("/usr/bin/helper", "/usr/bin/helper"))
	p := b.graph().Closure(func(uint64) bool { return true })
	if got, why := p.Action(b.l("exec")), p.Reason(b.l("exec")); got != Execute || why != Policy {
		t.Errorf("exec: %s (%s), want execute (always executes)", got, why)
	}
}

// The command's own exec, the trace's first call, is the tracer's
// helper's live: never replayed, so never a candidate.
func TestOwnExecNotServed(t *testing.T) {
	b := newTB(t)
	b.Events = append(b.Events, trace.Event{Proc: &trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1}})
	b.do("exec", 1, "execve", 0, []uint64{0x1000, 0x2000, 0x3000}, named("/usr/bin/xz", "/usr/bin/xz"),
		func(_ *tracetest.Builder, _ *systable.Syscall, c *trace.Call) { c.Obj = 7 })
	files := imageFiles{7: {ID: 7, Path: "/usr/bin/xz", Mode: unix.S_IFREG | 0o755, Size: 3, Chunks: []trace.Hash{{1}}}}
	g, err := BuildServed(b.Table, &trace.Header{Arch: "amd64"}, b.Events, files)
	if err != nil {
		t.Fatal(err)
	}
	p := g.Closure(func(uint64) bool { return true })
	if got, why := p.Action(b.l("exec")), p.Reason(b.l("exec")); got != Execute || why != Policy {
		t.Errorf("own exec: %s (%s), want execute (always executes)", got, why)
	}
}
