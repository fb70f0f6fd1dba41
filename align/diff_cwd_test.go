package align

import (
	"testing"

	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/trace"
)

// TestDiffCwdThroughSymlink: two runs recorded from the same symbolic
// link (the header's cwd, $PWD's logical /src in both) to two releases:
// their calls name the kernel's paths, /srv/releases/v1/... and
// .../v2/..., and are keyed by the cwd start events, so the same open of
// the release's app.conf is one call of both runs, whose read differs,
// not a call only in each.
func TestDiffCwdThroughSymlink(t *testing.T) {
	tab := tracetest.Amd64(t)
	mk := func(pidBase int32, dir, conf string) Run {
		r := newRun(t, pidBase)
		r.start = append(r.start, trace.StartEvent{Kind: trace.StartCwd, Value: dir})
		prologue(r, 0x7f0000000000)
		r.call(1, "openat", 3, dir+"/app.conf", atFDCWD)
		tracetest.Out(r.call(1, "read", int64(len(conf)), dir+"/app.conf", 3), 1, conf)
		r.call(1, "exit_group", 0, "").NoReturn = true
		r.exit(1, 0)
		return r.Run()
	}
	a, b := mk(100, "/srv/releases/v1", "mode=fast\n"), mk(200, "/srv/releases/v2", "mode=slow\n")
	if a.Header.Cwd != b.Header.Cwd {
		t.Fatalf("headers' cwd %q and %q; want the same logical one", a.Header.Cwd, b.Header.Cwd)
	}
	r := Diff(tab, a, b, Options{})
	if r.OnlyACalls != 0 || r.OnlyBCalls != 0 || r.Differ != 1 {
		t.Errorf("%d calls only in A, %d only in B, %d differ; want the open and read of app.conf paired, the read differing", r.OnlyACalls, r.OnlyBCalls, r.Differ)
	}
}
