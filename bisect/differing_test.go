package bisect

import (
	"context"
	"encoding/binary"
	"slices"
	"sync"
	"testing"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/trace"
)

// TestDifferingSearchRunsOverResources: five files differ here; the
// search runs over them (whole resources, never a prefix of calls) and
// names the one that matters in ⌈log2 5⌉ + 2 runs.
func TestDifferingSearchRunsOverResources(t *testing.T) {
	b := standard(t)
	g := b.graph()
	here := map[uint64]*trace.Call{}
	for _, p := range []string{"ld.", "locale.", "conf.", "hosts.", "motd."} {
		seq := b.l(p + "read")
		c := call(t, g, seq)
		here[seq] = changed(c, c.Ret, 1, "other")
	}
	for _, culprit := range []string{"ld.read", "conf.read", "motd.read"} {
		f := &fake{g: g, culprit: b.l(culprit), here: here}
		rep, err := Locate(context.Background(), g, f, Options{Events: b.Events})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Status != Located || rep.Culprit.Seq != b.l(culprit) {
			t.Fatalf("%s: got %s, culprit %+v", culprit, rep.Status, rep.Culprit)
		}
		if rep.Space == nil || rep.Space.Over != "differing" || rep.Space.Candidates != 5 {
			t.Fatalf("%s: space %+v, want the 5 differing files", culprit, rep.Space)
		}
		if rep.Runs > 2+log2ceil(5) {
			t.Errorf("%s: %d runs, want at most %d", culprit, rep.Runs, 2+log2ceil(5))
		}
		for _, r := range f.runs {
			if r.Prefix != 0 {
				t.Errorf("%s: run %+v replays a prefix of calls", culprit, r)
			}
		}
		// In parallel: the same answer (the first round also runs the
		// pass end of every call, the fallback's, beside the fail end).
		var mu sync.Mutex
		pf := &fake{g: g, culprit: b.l(culprit), here: here}
		run := RunnerFunc(func(ctx context.Context, r Request) (Outcome, error) {
			mu.Lock()
			defer mu.Unlock()
			return pf.Run(ctx, r)
		})
		prep, err := Locate(context.Background(), g, run, Options{Events: b.Events, Jobs: 3})
		if err != nil {
			t.Fatal(err)
		}
		if prep.Status != Located || prep.Culprit.Seq != b.l(culprit) || prep.Space.Over != "differing" {
			t.Errorf("%s, --jobs 3: got %s, culprit %+v, space %+v", culprit, prep.Status, prep.Culprit, prep.Space)
		}
	}
}

// TestDifferingIdenticalNeverCulprit: only the configuration differs
// here, but the command passes only when /etc/hosts is replayed, which
// gives the same answers in both environments. No set of differing
// resources passes, so the search falls back to every call, says so,
// and does not name /etc/hosts's read: its answers are the same here.
func TestDifferingIdenticalNeverCulprit(t *testing.T) {
	b := standard(t)
	g := b.graph()
	read, hosts := b.l("conf.read"), b.l("hosts.read")
	f := &fake{g: g, culprit: hosts, same: true, here: map[uint64]*trace.Call{read: changed(call(t, g, read), 10, 1, "key value\n")}}
	rep, err := Locate(context.Background(), g, f, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Space == nil || rep.Space.Over != "all" || rep.Space.Fallback == "" || len(rep.Space.Resources) != 1 {
		t.Errorf("space %+v, want a fallback after the one differing file", rep.Space)
	}
	if rep.Status != Inconclusive || rep.Culprit != nil || !slices.Equal(rep.Candidates, []uint64{hosts}) {
		t.Errorf("got %s (%s), culprit %+v, candidates %v; want inconclusive on call %d", rep.Status, rep.Message,
			rep.Culprit, rep.Candidates, hosts)
	}
}

// TestDifferingReachedLater: the failing run stops before it reads
// /etc/hosts (no live result), so only the configuration is seen to
// differ; the run that replays it gets further and shows /etc/hosts
// differing too, and the search adds it: the command needs both.
func TestDifferingReachedLater(t *testing.T) {
	b := standard(t)
	g := b.graph()
	conf, hosts := b.l("conf.read"), b.l("hosts.read")
	var runs []Request
	run := RunnerFunc(func(_ context.Context, r Request) (Outcome, error) {
		runs = append(runs, r)
		asks := r.Asks(g)
		plan := g.Closure(asks)
		out := Outcome{Verdict: Fail, Live: map[uint64]*trace.Call{}}
		if asks(conf) && asks(hosts) {
			out.Verdict = Pass
		}
		for _, c := range g.Calls() {
			if plan.Action(c.Seq) != depgraph.Execute {
				continue
			}
			switch {
			case c.Seq == conf:
				out.Live[c.Seq] = changed(c, 10, 1, "key value\n")
			case c.Seq >= hosts-2 && !asks(conf):
				// the program stops at its configuration
			case c.Seq == hosts:
				out.Live[c.Seq] = changed(c, c.Ret, 1, "10.0.0.1 localhost\n")
			default:
				out.Live[c.Seq] = c
			}
		}
		return out, nil
	})
	rep, err := Locate(context.Background(), g, run, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	// Both are causes, named in the order the program met them: the
	// configuration's read first, /etc/hosts's, reached later, second.
	if rep.Status != Located || len(rep.Causes) != 2 || rep.Culprit.Seq != conf || rep.Causes[1].Seq != hosts {
		t.Fatalf("got %s (%s), culprit %+v; want the configuration's read, then /etc/hosts's", rep.Status, rep.Message, rep.Culprit)
	}
	if sp := rep.Space; sp == nil || sp.Over != "differing" || sp.Candidates != 2 ||
		sp.Resources[0].Differs != conf || sp.Resources[1].Differs != hosts {
		t.Errorf("space %+v", sp)
	}
	if got := verdicts(rep.Steps); !slices.Equal(got, []string{"0:fail", "1:fail", "2:pass", "1:fail"}) {
		t.Errorf("steps %v", got)
	}
}

// TestNamedPrefersContent: a file whose content differs here shows it in
// its stat (another size) before the read; the culprit named is the open
// of the file, with the read as evidence, never the stat.
func TestNamedPrefersContent(t *testing.T) {
	b := newTB(t)
	b.always(1)
	stat := b.do("stat", "newfstatat", 0, []uint64{atCWD, 0x10000, 0x20000, 0},
		trace.Mem{Arg: 1, Dir: trace.In, Len: 16, Data: []byte("/etc/fig79.conf\x00")},
		trace.Mem{Arg: 2, Dir: trace.Out, Len: 144, Data: statWithSize(10)})
	stat.Path = "/etc/fig79.conf"
	b.file("conf.", "/etc/fig79.conf", "key=value\n")
	g0 := b.graph()
	call(t, g0, b.l("conf.open")).Obj = 1 // the trace keeps the file
	g := b.graph()
	open, read := b.l("conf.open"), b.l("conf.read")
	st := call(t, g, stat.Seq)
	bigger := *st
	bigger.Mem = []trace.Mem{st.Mem[0], {Arg: 2, Dir: trace.Out, Len: 144, Data: statWithSize(12)}}
	f := &fake{g: g, culprit: read, here: map[uint64]*trace.Call{
		stat.Seq: &bigger,
		read:     changed(call(t, g, read), 12, 1, "key = value\n"),
	}}
	rep, err := Locate(context.Background(), g, f, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != open || rep.Culprit.Content == nil || rep.Culprit.Content.Seq != read {
		t.Fatalf("got %s, culprit %+v; want the open %d with the read %d as evidence", rep.Status, rep.Culprit, open, read)
	}
}

// statWithSize is a struct stat (x86-64) of a regular file of size n.
func statWithSize(n uint64) []byte {
	b := make([]byte, 144)
	binary.LittleEndian.PutUint32(b[24:], 0o100644) // st_mode
	binary.LittleEndian.PutUint64(b[48:], n)        // st_size
	return b
}

// TestDifferingChainOfMissingFiles: every file the program reads is
// missing here, and it stops at the first it cannot open, so each run
// reaches one more: the pass end widens by what each run saw differ
// (maxExpansions times), then by what no run reached, and the search
// names the last file the command needs.
func TestDifferingChainOfMissingFiles(t *testing.T) {
	b := standard(t)
	g := b.graph()
	files := []string{"ld.", "libc.", "locale.", "conf.", "hosts.", "motd."}
	run := RunnerFunc(func(_ context.Context, r Request) (Outcome, error) {
		asks := r.Asks(g)
		plan := g.Closure(asks)
		out := Outcome{Verdict: Pass, Live: map[uint64]*trace.Call{}}
		stop := uint64(1 << 62)
		for _, p := range files {
			if open := b.l(p + "open"); !asks(open) {
				stop, out.Verdict = open, Fail
				break
			}
		}
		for _, c := range g.Calls() {
			switch {
			case plan.Action(c.Seq) != depgraph.Execute || c.Seq > stop:
			case c.Seq == stop:
				out.Live[c.Seq] = changed(c, -2, 1, "") // ENOENT
			default:
				out.Live[c.Seq] = c
			}
		}
		return out, nil
	})
	rep, err := Locate(context.Background(), g, run, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	// Every part is needed; the causes are in the order the program met
	// them, the last part, /etc/motd, among them.
	if rep.Status != Located || len(rep.Causes) < 2 {
		t.Fatalf("got %s (%s), %d causes; want every part", rep.Status, rep.Message, len(rep.Causes))
	}
	if last := rep.Causes[len(rep.Causes)-1]; last.Seq != b.l("motd.open") || rep.Culprit.Seq >= last.Seq {
		t.Fatalf("got %s (%s), culprit %+v; want the parts in the order met, the open of /etc/motd last", rep.Status, rep.Message, rep.Culprit)
	}
	sp := rep.Space
	if sp == nil || sp.Over != "differing" || sp.Candidates != len(files) {
		t.Fatalf("space %+v", sp)
	}
	for i, res := range sp.Resources {
		if observed := res.Differs != 0; observed != (i < 1+maxExpansions) {
			t.Errorf("resource %d (%s): differs %d; the first %d were seen to differ, the rest were never reached",
				i, res.Title, res.Differs, 1+maxExpansions)
		}
	}
}

// TestNamedPrefersMissingHere: a shell looks its tool up with a stat,
// which fails with ENOENT here, and never runs it: the culprit named is
// the stat that shows the file missing, not the exec that did not
// happen (survey c5).
func TestNamedPrefersMissingHere(t *testing.T) {
	b := newTB(t)
	b.always(1)
	stat := b.do("stat", "newfstatat", 0, []uint64{atCWD, 0x10000, 0x20000, 0},
		trace.Mem{Arg: 1, Dir: trace.In, Len: 16, Data: []byte("/opt/bin/mytool\x00")},
		trace.Mem{Arg: 2, Dir: trace.Out, Len: 144, Data: statWithSize(10)})
	stat.Path = "/opt/bin/mytool"
	b.file("tool.", "/opt/bin/mytool", "#!/bin/sh\n")
	g := b.graph()
	st := call(t, g, stat.Seq)
	missing := *st
	missing.Ret, missing.Mem = -2, st.Mem[:1] // ENOENT
	f := &fake{g: g, culprit: b.l("tool.open"), here: map[uint64]*trace.Call{
		stat.Seq: &missing, b.l("tool.open"): nil, b.l("tool.fstat"): nil, b.l("tool.read"): nil, b.l("tool.close"): nil,
	}}
	rep, err := Locate(context.Background(), g, f, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != stat.Seq || rep.Culprit.Here.Errno != "ENOENT" {
		t.Fatalf("got %s, culprit %+v; want the stat %d failing with ENOENT", rep.Status, rep.Culprit, stat.Seq)
	}
}
