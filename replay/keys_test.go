package replay

import (
	"testing"

	"github.com/envbisect/envbisect/trace"
)

const (
	nrWrite  = 1
	nrFcntl  = 72
	nrPipe2  = 293
	nrSocket = 41
)

// TestInheritedStdioKeys: calls on the command's stdout and stderr, on
// copies of them and on a kept descriptor, are keyed alike whatever they
// refer to in each run; a file the program opens is keyed by its path.
func TestInheritedStdioKeys(t *testing.T) {
	var e evs
	e.proc(&trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1, Index: 1})
	w1 := e.call(1, 1, nrWrite, "/ci/log.txt")
	w1.Args[0] = 1
	w2 := e.call(1, 1, nrFcntl, "/ci/log.txt")
	w2.Args = [6]uint64{2, 0, 10} // fcntl(2, F_DUPFD, 10) = 10
	w2.Ret = 10
	w3 := e.call(1, 1, nrWrite, "/ci/log.txt")
	w3.Args[0] = 10 // the copy
	p := e.call(1, 1, nrPipe2, "pipe:[77]")
	w4 := e.call(1, 1, nrWrite, "pipe:[5]")
	w4.Args[0] = 251 // kept with --keep-fds 251
	rec := synth(t, e.list)
	inh := []inheritedFD{{0, "/dev/null"}, {1, "/dev/pts/3"}, {2, "/dev/pts/3"}, {251, "pipe:[9]"}}
	live := func(nr uint32, fd uint64, path string) *trace.Call {
		return &trace.Call{Proc: 1, Thread: 1, Nr: nr, Path: path, Args: [6]uint64{fd}}
	}
	th := rec.threads[1]
	cases := []struct {
		name string
		c    *trace.Call
		want int
	}{
		{"write to stdout", live(nrWrite, 1, "/dev/pts/3"), 0},
		{"fcntl of stderr", live(nrFcntl, 2, "/dev/pts/3"), 1},
		{"write to a copy of stderr", live(nrWrite, 10, "/dev/pts/3"), 2},
		{"pipe2, whose pipe is not known at entry", live(nrPipe2, 0, ""), 3},
		{"write to a kept fd, another pipe here", live(nrWrite, 251, "pipe:[9]"), 4},
	}
	for _, c := range cases {
		if got := liveKey(rec.keyer, rec.Table.ByNr(int(c.c.Nr)), inh, c.c); got != th.keys.At(c.want) {
			t.Errorf("%s: live key %+v, recorded %+v", c.name, got, th.keys.At(c.want))
		}
	}
	// /dev/null opened by name on fd 3 is a file, not stdin.
	if k := liveKey(rec.keyer, rec.Table.ByNr(nrWrite), inh, live(nrWrite, 3, "/dev/null")); k.Res != "/dev/null" {
		t.Errorf("write to /dev/null on fd 3 keyed %q, want the path", k.Res)
	}
	if p.Path == "" || th.keys.At(3).Res != "" {
		t.Errorf("recorded pipe2 keyed %q, want no path", th.keys.At(3).Res)
	}
}
