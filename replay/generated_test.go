package replay

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/internal/testutil"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/verdict"
)

// TestGeneratedNameMatched: a shell script makes a temporary file with
// mktemp (a random name: open O_CREAT|O_EXCL), writes it, reads it back
// with head and removes it. Replayed, every live name differs from the
// recorded one, yet each recorded call on the recorded name is matched
// by the live call on the live name, in mktemp, in the shell and in head
// (three processes: the mapping is the run's), none is extra, and the
// run passes printing what it wrote.
func TestGeneratedNameMatched(t *testing.T) {
	testutil.Require(t, testutil.Binary("mktemp"), testutil.Binary("head"), testutil.Binary("rm"))
	script := `f=$(mktemp -p "$PWD" gen.XXXXXXXX); echo data > "$f"; head -n 1 "$f"; rm "$f"`
	good := t.TempDir()
	rec := recordRun(t, good, "/bin/sh", "-c", script)
	var name string
	for c := range rec.Graph.AllCalls() {
		if strings.HasPrefix(c.Path, filepath.Join(good, "gen.")) {
			name = c.Path
			break
		}
	}
	onName := callsOn(rec, name)
	if name == "" || len(onName) < 4 {
		t.Fatalf("the trace has %d calls on the temporary file %q, want mktemp's open, the shell's, head's and the unlink", len(onName), name)
	}
	res, out := replayRun(t, rec, good, all, "/bin/sh", "-c", script)
	if res.Verdict != verdict.Pass || strings.TrimSpace(out) != "data" {
		t.Errorf("verdict %s (%s), output %q; want a pass printing data", res.Verdict, res.Detail, out)
	}
	matched := map[uint64]bool{}
	for _, c := range res.Calls {
		matched[c.Seq] = true
		if strings.Contains(c.Path, "/gen.") && c.Seq == 0 {
			t.Errorf("live call %d %s %s: %s (recorded call %d), want a call on a new name matched to a recorded one",
				c.LiveSeq, c.Syscall, c.Path, c.Action, c.Seq)
		}
	}
	for seq := range onName {
		if !matched[seq] {
			t.Errorf("recorded call %d on %s: no live call matched it", seq, name)
		}
	}
	// An extra live call is allowed, a call on the live name is not:
	// mktemp draws again when its random value falls in the unfair
	// range (glibc's rejection sampling, about one run in twenty), and
	// that extra getrandom names the recorded open on the name it
	// expected next.
	for _, d := range res.Divergences {
		if strings.Contains(d.Got, "/gen.") {
			t.Errorf("divergence %s", d)
		}
	}
}

// TestBinderGeneratedNames: two recorded children of the command each
// make a temporary file first, then open a config of their own. A live
// child that makes a temporary file of another random name keeps both
// as candidates, is matched by the config it opens next, and the binder
// keeps its live temporary name for the engine to map to the matched
// child's recorded one.
func TestBinderGeneratedNames(t *testing.T) {
	const oCreatExcl = 0o300
	var e evs
	e.proc(&trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1, Index: 1})
	e.call(1, 1, nrExecve, "/bin/sh")
	e.call(1, 1, nrOpenat, "/w/x")
	for i, name := range []string{"AAAAAAAA", "BBBBBBBB"} {
		p := uint32(2 + i)
		e.proc(&trace.ProcEvent{Kind: trace.Spawn, Proc: p, Thread: p, Parent: 1, ParentThread: 1, Index: uint32(1 + i)})
		e.call(p, p, nrExecve, "/bin/job")
		e.call(p, p, nrOpenat, "/tmp/tmp."+name).Args[2] = oCreatExcl
		e.call(p, p, nrOpenat, "/etc/job"+string(rune('a'+i)))
	}
	rec := synth(t, e.list)
	b := newBinder(rec, DefaultWindow)
	k := rec.keyer
	feed := func(proc uint32, c *trace.Call) (*liveThread, align.Fed, bool) {
		c.Proc, c.Thread = proc, proc
		if c.Nr == nrOpenat {
			c.Args[0] = atFDCWDReg
		}
		key := k.Key(c)
		return b.thread(c, key, k.Like(c, key))
	}
	b.procEvent(&trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1, Index: 1})
	feed(1, &trace.Call{Nr: nrOpenat, Path: "/w/x"}) // the root, matched from its second call
	b.procEvent(&trace.ProcEvent{Kind: trace.Spawn, Proc: 5, Thread: 5, Parent: 1, ParentThread: 1, Index: 1})
	feed(5, &trace.Call{Nr: nrExecve, Path: "/bin/job"})
	tmp := &trace.Call{Nr: nrOpenat, Path: "/tmp/tmp.CCCCCCCC"}
	tmp.Args[2] = oCreatExcl
	if lt, _, _ := feed(5, tmp); lt.rec != nil || lt.unmatched() {
		t.Fatalf("live child after its temporary file: matched %v (unmatched %v), want both recorded children still candidates", lt.rec, lt.unmatched())
	}
	lt, f, fed := feed(5, &trace.Call{Nr: nrOpenat, Path: "/etc/jobb"})
	if lt.rec == nil || lt.rec.proc != 3 || !fed || f.Verdict != align.Matched {
		t.Fatalf("live child opening /etc/jobb: matched %v (fed %v, %+v), want the recorded child 3", lt.rec, fed, f)
	}
	if live := lt.generated[1]; live != "/tmp/tmp.CCCCCCCC" || rec.callAt(lt.rec.calls[1]).Path != "/tmp/tmp.BBBBBBBB" {
		t.Errorf("generated name at call 1: live %q for recorded %q, want /tmp/tmp.CCCCCCCC for /tmp/tmp.BBBBBBBB", live, rec.callAt(lt.rec.calls[1]).Path)
	}
}
