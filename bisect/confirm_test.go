package bisect

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/trace"
)

// differingFiles is the standard trace with the reads of the files of
// prefixes giving other bytes here.
func differingFiles(t *testing.T, b *tb, g *depgraph.Graph, prefixes ...string) map[uint64]*trace.Call {
	t.Helper()
	here := map[uint64]*trace.Call{}
	for _, p := range prefixes {
		seq := b.l(p + "read")
		c := call(t, g, seq)
		here[seq] = changed(c, c.Ret, 1, "other")
	}
	return here
}

// judged is a fake runner over g whose live results are here's and
// whose verdict is pass(r).
func judged(g *depgraph.Graph, here map[uint64]*trace.Call, pass func(r Request) bool) (*fake, Runner) {
	f := &fake{g: g, here: here}
	return f, RunnerFunc(func(ctx context.Context, r Request) (Outcome, error) {
		out, err := f.Run(ctx, r)
		out.Verdict, out.Detail = Fail, "exit status 1"
		if pass(r) {
			out.Verdict, out.Detail = Pass, "exit status 0"
		}
		return out, err
	})
}

// TestConfirmOneCause: three files differ, the middle one matters. Its
// file alone passes and everything but it fails: it is named, the two
// confirmation runs are counted apart from the search's, and marked in
// the steps.
func TestConfirmOneCause(t *testing.T) {
	b := standard(t)
	g := b.graph()
	conf := b.l("conf.read")
	_, run := judged(g, differingFiles(t, b, g, "ld.", "conf.", "motd."), func(r Request) bool { return r.Asks(g)(conf) })
	rep, err := Locate(context.Background(), g, run, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != conf || len(rep.Causes) != 1 || rep.Causes[0].Seq != conf {
		t.Fatalf("got %s (%s), culprit %+v, causes %v; want call %d", rep.Status, rep.Message, rep.Culprit, rep.Causes, conf)
	}
	if rep.ConfirmRuns < 1 || rep.ConfirmRuns > 2 || rep.CauseRuns != 0 {
		t.Errorf("%d confirmation runs and %d for causes, want 1 or 2 and 0", rep.ConfirmRuns, rep.CauseRuns)
	}
	if n := roleRuns(rep.Steps, render.RoleConfirm); n != rep.ConfirmRuns || len(rep.Steps) != rep.Runs+rep.ConfirmRuns {
		t.Errorf("%d steps with the confirm role, %d steps in all; report says %d + %d", n, len(rep.Steps), rep.Runs, rep.ConfirmRuns)
	}
}

// TestConfirmFirstUnitCostsNothing: one file differs: the run of it
// alone and the run of everything but it are the search's own ends, and
// confirmation makes no run.
func TestConfirmFirstUnitCostsNothing(t *testing.T) {
	b := standard(t)
	g := b.graph()
	conf := b.l("conf.read")
	f, run := judged(g, differingFiles(t, b, g, "conf."), func(r Request) bool { return r.Asks(g)(conf) })
	rep, err := Locate(context.Background(), g, run, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != conf || rep.ConfirmRuns != 0 || len(f.runs) != 2 {
		t.Errorf("got %s, culprit %+v, %d confirmation runs, %d runs; want call %d in the 2 runs of the ends", rep.Status,
			rep.Culprit, rep.ConfirmRuns, len(f.runs), conf)
	}
}

// TestConfirmFails: nothing is seen to differ, the search falls back to
// every call and ends at the configuration's fstat (every call before it
// replayed too), but the run replaying the configuration file alone
// fails (what made the prefix pass is elsewhere too): nothing is named,
// the status is unconfirmed with the fstat as the suspect, and the
// disagreeing step is listed with the confirm role.
func TestConfirmFails(t *testing.T) {
	b := standard(t)
	g := b.graph()
	fstat := b.l("conf.fstat")
	f := &fake{g: g, culprit: fstat, verdict: func(r Request, _ int) (Outcome, bool) {
		if len(r.Groups) == 1 {
			return Outcome{Verdict: Fail, Detail: "exit status 1"}, true
		}
		return Outcome{}, false
	}}
	rep, err := Locate(context.Background(), g, f, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Unconfirmed || rep.Culprit != nil || len(rep.Causes) != 0 || rep.Suspect == nil || rep.Suspect.Seq != fstat {
		t.Fatalf("got %s (%s), culprit %+v, causes %v, suspect %+v; want unconfirmed at call %d", rep.Status, rep.Message,
			rep.Culprit, rep.Causes, rep.Suspect, fstat)
	}
	if rep.ExitCode() != 3 {
		t.Errorf("exit code %d, want 3", rep.ExitCode())
	}
	if len(rep.Disagreeing) != 1 {
		t.Fatalf("disagreeing steps %v, want one", rep.Disagreeing)
	}
	for _, st := range rep.Steps {
		if st.Step == rep.Disagreeing[0] && (st.Role != render.RoleConfirm || st.Verdict != Fail || st.Resources != 1) {
			t.Errorf("disagreeing step %+v: want the confirmation run of the file alone, failing", st)
		}
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	for _, want := range []string{"unconfirmed (", "suspect   call", "[confirm]"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
}

// TestConfirmSkipped: the run that would confirm the suspect (its file
// alone) exits 125 twice: it cannot be confirmed, and is not named.
func TestConfirmSkipped(t *testing.T) {
	b := standard(t)
	g := b.graph()
	conf := b.l("conf.read")
	_, run := judged(g, differingFiles(t, b, g, "ld.", "conf.", "motd."), func(r Request) bool { return r.Asks(g)(conf) })
	skipAlone := RunnerFunc(func(ctx context.Context, r Request) (Outcome, error) {
		out, err := run.Run(ctx, r)
		if len(r.Groups) == 1 && r.Asks(g)(conf) {
			out.Verdict, out.Detail = Skip, "exit status 125"
		}
		return out, err
	})
	rep, err := Locate(context.Background(), g, skipAlone, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Unconfirmed || rep.Culprit != nil || rep.Suspect == nil || rep.Suspect.Seq != conf || rep.ConfirmRuns != 2 {
		t.Errorf("got %s (%s), culprit %+v, suspect %+v, %d confirmation runs; want unconfirmed at call %d after 2",
			rep.Status, rep.Message, rep.Culprit, rep.Suspect, rep.ConfirmRuns, conf)
	}
}

// TestConfirmTwoCauses: four files differ and the command needs two of
// them. The search ends at the later one; replaying it alone fails, so
// it stays replayed and the others are bisected again: the earlier one
// is the second cause. Both are in causes, in the order found, and
// culprit is the first.
func TestConfirmTwoCauses(t *testing.T) {
	b := standard(t)
	g := b.graph()
	conf, motd := b.l("conf.read"), b.l("motd.read")
	_, run := judged(g, differingFiles(t, b, g, "ld.", "conf.", "hosts.", "motd."), func(r Request) bool {
		return r.Asks(g)(conf) && r.Asks(g)(motd)
	})
	rep, err := Locate(context.Background(), g, run, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	var got []uint64
	for _, c := range rep.Causes {
		got = append(got, c.Seq)
	}
	// In the order the program met them: the configuration's read, then
	// the motd's, whatever order the search found them in.
	if rep.Status != Located || rep.Culprit.Seq != conf || !slices.Equal(got, []uint64{conf, motd}) {
		t.Fatalf("got %s (%s), culprit %+v, causes %v; want calls %d and %d", rep.Status, rep.Message, rep.Culprit, got, conf, motd)
	}
	if rep.ConfirmRuns > 4 || rep.CauseRuns > 2+log2ceil(3) {
		t.Errorf("%d confirmation runs, %d for causes; want at most 4 and %d", rep.ConfirmRuns, rep.CauseRuns, 2+log2ceil(3))
	}
	js, _ := json.Marshal(rep)
	if !strings.Contains(string(js), `"causes":[{"seq":`) {
		t.Errorf("JSON lacks causes: %s", js)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	if !strings.Contains(text.String(), "2 causes, each needed") {
		t.Errorf("text does not list both causes:\n%s", text.String())
	}
}

// TestConfirmStartItemAndFile: an environment variable and a file both
// differ and both are needed: both are causes, the start item being
// left out by a confirmation run (Request.StartExcept) like a resource.
func TestConfirmStartItemAndFile(t *testing.T) {
	b := standard(t)
	g := b.graph()
	conf := b.l("conf.read")
	items := []StartItem{
		{Kind: "env", Name: "HOME", Good: strp("/root"), Here: strp("/home/ci")},
		{Kind: "env", Name: "MODE", Good: strp("strict"), Here: strp("loose")},
	}
	_, run := judged(g, differingFiles(t, b, g, "ld.", "conf."), func(r Request) bool {
		return slices.ContainsFunc(StartOf(r, items), func(it StartItem) bool { return it.Name == "MODE" }) && r.Asks(g)(conf)
	})
	rep, err := Locate(context.Background(), g, run, Options{Events: b.Events, Start: items})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || len(rep.Causes) != 2 {
		t.Fatalf("got %s (%s), causes %v; want the start item and the file", rep.Status, rep.Message, rep.Causes)
	}
	var start, file bool
	for _, c := range rep.Causes {
		start = start || c.Start != nil && c.Start.Name == "MODE"
		file = file || c.Seq == conf
	}
	if !start || !file {
		t.Errorf("causes %+v; want env MODE and call %d", rep.Causes, conf)
	}
}

// TestStartOf: a request's start items are its first Start less
// StartExcept.
func TestStartOf(t *testing.T) {
	items := []string{"a", "b", "c"}
	for _, tt := range []struct {
		r    Request
		want []string
	}{
		{Request{}, nil},
		{Request{Start: 2}, []string{"a", "b"}},
		{Request{Start: 3, StartExcept: []int{1}}, []string{"a", "c"}},
		{Request{Start: 5}, items},
	} {
		if got := StartOf(tt.r, items); !slices.Equal(got, tt.want) {
			t.Errorf("StartOf(%+v) = %v, want %v", tt.r, got, tt.want)
		}
	}
}

// TestIdenticalFlipUnconfirmed: nothing differs here, the search falls
// back to every call, and the only call whose replay flips the verdict
// gave here exactly what it gave in the recording: it is never named;
// the status is unconfirmed, with it as the suspect.
func TestIdenticalFlipUnconfirmed(t *testing.T) {
	b := standard(t)
	g := b.graph()
	hosts := b.l("hosts.read")
	rep, err := Locate(context.Background(), g, &fake{g: g, culprit: hosts, same: true}, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Unconfirmed || rep.Culprit != nil || rep.Suspect == nil || rep.Suspect.Seq != hosts {
		t.Errorf("got %s (%s), culprit %+v, suspect %+v; want unconfirmed at call %d", rep.Status, rep.Message, rep.Culprit,
			rep.Suspect, hosts)
	}
}

// TestConfirmCallInFallback: nothing is seen to differ (the call that
// matters did not happen here: the program failed before it), so the
// search falls back to every call and ends at that call; its resource
// alone passes and every call but its resource's fails, so it is
// located, with the two confirmation runs counted.
func TestConfirmCallInFallback(t *testing.T) {
	b := standard(t)
	g := b.graph()
	fstat := b.l("conf.fstat")
	f := &fake{g: g, culprit: fstat}
	rep, err := Locate(context.Background(), g, f, Options{Events: b.Events})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != fstat || rep.ConfirmRuns != 2 || rep.Space == nil || rep.Space.Over != "all" {
		t.Fatalf("got %s (%s), culprit %+v, %d confirmation runs, space %+v; want call %d located over every call, "+
			"with 2 confirmation runs", rep.Status, rep.Message, rep.Culprit, rep.ConfirmRuns, rep.Space, fstat)
	}
	last := f.runs[len(f.runs)-2:]
	if len(last[0].Groups) != 1 || last[1].Prefix != fstat || len(last[1].Except) != 1 {
		t.Errorf("confirmation runs %+v, want its resource alone, then every call up to it but its resource", last)
	}
}

// TestIdenticalKeptFileFlip: the flip is a read of a library the trace
// keeps, answered here exactly as recorded. The kept file's content is
// what decides: the same bytes here (ContentHere gives the kept hash)
// and the flip is unconfirmed, never named (a flaky command's coin
// flip); other bytes here and the library is named.
func TestIdenticalKeptFileFlip(t *testing.T) {
	kept := trace.Hash{1, 2, 3}
	for _, tt := range []struct {
		name string
		here trace.Hash
		want render.LocateStatus
	}{
		{"same content here", kept, Unconfirmed},
		{"other content here", trace.Hash{9}, Located},
	} {
		b := standard(t)
		open, read := b.l("libc.open"), b.l("libc.read")
		for _, ev := range b.Events {
			if ev.Call != nil && ev.Call.Seq == open {
				ev.Call.Obj = 1
			}
		}
		g := b.graph()
		obj := &trace.FileObject{ID: 1, Path: "/lib/libc.so.6", SHA256: kept}
		o := Options{Events: b.Events,
			Files: func(id uint32) *trace.FileObject {
				if id == 1 {
					return obj
				}
				return nil
			},
			ContentHere: func(p string) (trace.Hash, error) {
				if p != obj.Path {
					t.Errorf("ContentHere(%q), want %s", p, obj.Path)
				}
				return tt.here, nil
			}}
		rep, err := Locate(context.Background(), g, &fake{g: g, culprit: read, same: true}, o)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Status != tt.want {
			t.Errorf("%s: got %s (%s), want %s", tt.name, rep.Status, rep.Message, tt.want)
		}
	}
}

// TestConfirmCauseLimit: ten environment variables differ, and the
// command needs all of them. The search finds causes one by one up to
// its limit; with those replayed the command still fails, so it stops:
// unconfirmed (exit 3), with the limit and the causes found so far in
// the report, and a report that says so instead of calling the command
// flaky or suggesting more runs per step.
func TestConfirmCauseLimit(t *testing.T) {
	b := standard(t)
	g := b.graph()
	var items []StartItem
	for i := range 10 {
		items = append(items, StartItem{Kind: "env", Name: fmt.Sprintf("V%d", i), Good: strp("good"), Here: strp("bad")})
	}
	_, run := judged(g, differingFiles(t, b, g, "ld."), func(r Request) bool { return len(StartOf(r, items)) == len(items) })
	rep, err := Locate(context.Background(), g, run, Options{Events: b.Events, Start: items, Command: []string{"app"}, TracePath: "good.envb",
		RunFlags: []string{"--timeout", "10s"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Unconfirmed || rep.ExitCode() != 3 || rep.CauseLimit == nil || rep.CauseLimit.Limit != maxCauses ||
		len(rep.CauseLimit.Found) != maxCauses {
		t.Fatalf("got %s (%s), cause limit %+v; want unconfirmed at the limit of %d causes, each listed", rep.Status, rep.Message, rep.CauseLimit, maxCauses)
	}
	for i, c := range rep.CauseLimit.Found {
		if c.Start == nil || !strings.HasPrefix(c.Start.Name, "V") {
			t.Errorf("cause %d found: %+v; want an env item", i+1, c)
		}
	}
	if !strings.Contains(rep.Message, "the search stopped at its limit of 8 causes: with the 8 found so far replayed together the command still fails here, so more remain") {
		t.Errorf("message %q; want the limit named", rep.Message)
	}
	var text, md bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
		for _, bad := range []string{"flaky", "--repeat"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s says %q at the cause limit:\n%s", name, bad, out)
			}
		}
		for _, want := range []string{"Causes found so far (8 causes, each needed with the others; more remain):",
			"start item env V", "looks for 8 at most", "This is not flakiness", "Make the difference smaller",
			"envbisect locate --timeout 10s good.envb -- app"} {
			if !strings.Contains(strings.Join(strings.Fields(out), " "), want) { // across wrapped lines
				t.Errorf("%s lacks %q:\n%s", name, want, out)
			}
		}
	}
}
