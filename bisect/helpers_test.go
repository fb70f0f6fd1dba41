package bisect

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/internal/tracetest"
	"github.com/envbisect/envbisect/trace"
)

// atCWD is AT_FDCWD in a 64-bit register.
const atCWD = tracetest.AtCWD

// tb builds a synthetic trace (package tracetest) of process 1 (running
// /usr/bin/fig79): calls get increasing seqs; labels name calls for the
// checks.
type tb struct{ *tracetest.Builder }

func newTB(t *testing.T) *tb {
	t.Helper()
	b := &tb{tracetest.New(t)}
	b.Events = append(b.Events,
		trace.Event{Proc: &trace.ProcEvent{Kind: trace.Spawn, Proc: 1, Thread: 1}},
		trace.Event{Proc: &trace.ProcEvent{Kind: trace.Exec, Proc: 1, Thread: 1, Exe: "/usr/bin/fig79", Argv: []string{"fig79"}}})
	return b
}

// do adds a call of process 1 and returns it; label, if not empty,
// names it.
func (b *tb) do(label, name string, ret int64, args []uint64, mems ...trace.Mem) *trace.Call {
	b.T.Helper()
	return b.Call(label, 1, 1, name, ret, args, tracetest.Mems(mems...))
}

// file adds the calls of a program reading a file: openat, fstat, read,
// close, labelled prefix+"open", ... .
func (b *tb) file(prefix, path, content string) {
	b.T.Helper()
	c := b.do(prefix+"open", "openat", 3, []uint64{atCWD, 0x10000, 0, 0},
		trace.Mem{Arg: 1, Dir: trace.In, Len: uint64(len(path) + 1), Data: []byte(path + "\x00")})
	c.Path = path
	b.do(prefix+"fstat", "fstat", 0, []uint64{3, 0x20000},
		trace.Mem{Arg: 1, Dir: trace.Out, Len: 144, Data: make([]byte, 144)}).Path = path
	b.do(prefix+"read", "read", int64(len(content)), []uint64{3, 0x30000, 4096},
		trace.Mem{Arg: 1, Dir: trace.Out, Len: uint64(len(content)), Data: []byte(content)}).Path = path
	b.do(prefix+"close", "close", 0, []uint64{3}).Path = path
}

// always adds calls that always execute: brk and a write to stdout.
func (b *tb) always(n int) {
	for range n {
		b.do("", "brk", 0x555000, []uint64{0})
	}
	b.do("", "write", 6, []uint64{1, 0x40000, 6},
		trace.Mem{Arg: 1, Dir: trace.In, Len: 6, Data: []byte("hello\n")}).Path = "/dev/pts/0"
}

// standard is the trace most tests search: a few files read, with
// always-executed calls between them, the config file /etc/fig79.conf
// among them.
func standard(t *testing.T) *tb {
	b := newTB(t)
	b.always(2)
	b.file("ld.", "/etc/ld.so.cache", "\x00\x01ld cache\x02")
	b.file("libc.", "/lib/libc.so.6", "\x7fELF\x02\x01\x01")
	b.always(1)
	b.file("locale.", "/usr/lib/locale/C.utf8/LC_CTYPE", "ctype")
	b.file("conf.", "/etc/fig79.conf", "key=value\n")
	b.file("hosts.", "/etc/hosts", "127.0.0.1 localhost\n")
	b.always(1)
	b.file("motd.", "/etc/motd", "welcome\n")
	return b
}

// graph builds the graph of the trace.
func (b *tb) graph() *depgraph.Graph {
	b.T.Helper()
	g, err := depgraph.Build(b.Table, &trace.Header{Arch: "amd64", Command: []string{"fig79", "--serve"}}, b.Events)
	if err != nil {
		b.T.Fatal(err)
	}
	return g
}

// l returns the seq of a label.
func (b *tb) l(label string) uint64 {
	b.T.Helper()
	return b.L(label)
}

// fake is a Runner whose verdict is a function of the prefix: pass when
// the culprit is asked to be replayed. Its live results are the
// recorded ones of the calls after the prefix, with here's results for
// the calls it names; the culprit, when here does not name it, did not
// happen here (the program failed before it), unless same is set: then
// it gave exactly its recorded result, and is never named (a flip on an
// identical call).
type fake struct {
	g       *depgraph.Graph
	culprit uint64
	same    bool
	here    map[uint64]*trace.Call // live results that differ from the recording; nil value: the call did not happen
	// verdict, when set, overrides the verdict: n counts the runs of this
	// prefix so far (1 for the first). ok false keeps the default.
	verdict func(r Request, n int) (Outcome, bool)
	runs    []Request
	count   map[uint64]int
}

func (f *fake) Run(ctx context.Context, r Request) (Outcome, error) {
	if err := ctx.Err(); err != nil {
		return Outcome{}, err
	}
	f.runs = append(f.runs, r)
	if f.count == nil {
		f.count = map[uint64]int{}
	}
	n := 0 // a confirmation run (groups, or all but some) is not counted
	if len(r.Groups) == 0 && len(r.Except) == 0 && len(r.StartExcept) == 0 {
		f.count[r.Prefix]++
		n = f.count[r.Prefix]
	}
	if f.verdict != nil {
		if out, ok := f.verdict(r, n); ok {
			return out, nil
		}
	}
	out := Outcome{Verdict: Fail, Detail: "exit status 1", Seconds: 0.25, Live: map[uint64]*trace.Call{}}
	if r.Asks(f.g)(f.culprit) {
		out.Verdict, out.Detail = Pass, "exit status 0"
	}
	plan := f.g.Closure(r.Asks(f.g))
	for _, c := range f.g.Calls() {
		if plan.Action(c.Seq) != depgraph.Execute {
			continue
		}
		live, differs := f.here[c.Seq]
		switch {
		case c.Seq == f.culprit && !differs && !f.same:
		case !differs:
			out.Live[c.Seq] = c
		case live != nil:
			out.Live[c.Seq] = live
		}
	}
	return out, nil
}

// allRuns is every run rep counts: the search's, the repeatability
// checks', the confirmations' and those of the search for further
// causes.
func allRuns(rep *Report) int { return rep.Runs + rep.RepeatRuns + rep.ConfirmRuns + rep.CauseRuns }

// changed returns a copy of c with its Out buffer of argument arg holding
// data and its return value ret.
func changed(c *trace.Call, ret int64, arg uint8, data string) *trace.Call {
	d := *c
	d.Ret = ret
	d.Mem = nil
	for _, m := range c.Mem {
		if m.Dir == trace.Out && m.Arg == arg {
			m.Data, m.Len = []byte(data), uint64(len(data))
			if data == "" && ret < 0 {
				continue
			}
		}
		d.Mem = append(d.Mem, m)
	}
	return &d
}

// call returns call seq of g.
func call(t *testing.T, g *depgraph.Graph, seq uint64) *trace.Call {
	t.Helper()
	c, ok := g.Call(seq)
	if !ok {
		t.Fatalf("no call %d", seq)
	}
	return c
}

// verdicts lists the search's steps as "index:verdict" strings (not
// the confirmation runs after it, which confirm_test.go checks).
func verdicts(steps []Step) []string {
	var out []string
	for _, s := range steps {
		if s.Role != "" {
			continue
		}
		out = append(out, fmt.Sprintf("%d:%s", s.Index, s.Verdict))
	}
	return out
}

// locateChecked runs Locate over g with run and checks what a table of
// search cases states: the status, the steps ("prefix:verdict") and, when
// located, the culprit.
func locateChecked(t *testing.T, b *tb, g *depgraph.Graph, run Runner, status Status, steps []string, culprit uint64) *Report {
	t.Helper()
	rep, err := Locate(context.Background(), g, run, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != status {
		t.Fatalf("status %s: %s", rep.Status, rep.Message)
	}
	if got := verdicts(rep.Steps); !slices.Equal(got, steps) {
		t.Errorf("steps %v, want %v", got, steps)
	}
	if status == Located && rep.Culprit.Seq != culprit {
		t.Errorf("culprit %d, want %d", rep.Culprit.Seq, culprit)
	}
	// The same search over a graph that reads its calls from a source
	// (as from a tracefile.Store: a fresh copy each time) and a pass
	// over the events makes the same report.
	src, err := depgraph.BuildPasses(b.Table, &trace.Header{Arch: "amd64", Command: []string{"fig79", "--serve"}},
		func(fn func(*trace.Event) error) error {
			for i := range b.Events {
				if err := fn(&b.Events[i]); err != nil {
					return err
				}
			}
			return nil
		}, depgraph.BuildOptions{Source: copies(b.Events)})
	if err != nil {
		t.Fatal(err)
	}
	each := func(fn func(*trace.Event) error) error {
		for _, ev := range b.Events {
			if err := fn(&ev); err != nil {
				return err
			}
		}
		return nil
	}
	again, err := Locate(context.Background(), src, run, Options{EachEvent: each})
	if err != nil {
		t.Fatal(err)
	}
	if a, w := untimed(again), untimed(rep); !reflect.DeepEqual(a, w) {
		t.Errorf("from a graph over a call source: %+v\nwant %+v", a, w)
	}
	return rep
}

// untimed is a copy of rep without its times, which differ from run to
// run.
func untimed(rep *Report) *Report {
	cp := *rep
	cp.Seconds = 0
	cp.Steps = slices.Clone(rep.Steps)
	for i := range cp.Steps {
		cp.Steps[i].Seconds = 0
	}
	return &cp
}

// copies is a depgraph.CallSource of events' calls that hands out a
// copy of a call each time.
type copies []trace.Event

func (evs copies) Call(seq uint64) (*trace.Call, error) {
	for _, ev := range evs {
		if ev.Call != nil && ev.Call.Seq == seq {
			c := *ev.Call
			return &c, nil
		}
	}
	return nil, nil
}
