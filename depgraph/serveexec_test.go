package depgraph

import (
	"testing"

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
		{"no image recorded (a v1 trace)", 0, true, Execute, ImageNotStored},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newTB(t)
			b.spawn("fork", 1, 2, 0)
			b.do("exec", 2, "execve", 0, []uint64{0x1000, 0x2000, 0x3000}, named("/usr/bin/helper", "/usr/bin/helper"),
				func(_ *tracetest.Builder, _ *systable.Syscall, c *trace.Call) { c.Obj = tc.obj })
			b.do("brk", 2, "brk", 0x5000, []uint64{0})
			b.openat("open", 2, "/etc/helper.conf", "/etc/helper.conf", 0, 3)
			g, err := BuildWith(b.Table, &trace.Header{Arch: "amd64"}, b.Events, BuildOptions{
				Stored: func(obj uint32) bool { return tc.stored && obj == 7 },
			})
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
			if got := p.Action(b.l("brk")); got != Execute {
				t.Errorf("brk after the exec: %s, want execute", got)
			}
			checkPlan(t, g, p)
		})
	}
}
