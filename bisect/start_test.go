package bisect

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
)

func strp(s string) *string { return &s }

// TestLocateStartItem: the start items are candidates before every call;
// a run that replays the culprit item passes, and the report names it
// with both values.
func TestLocateStartItem(t *testing.T) {
	g := standard(t).graph()
	items := []StartItem{
		{Kind: "env", Name: "HOME", Good: strp("/root"), Here: strp("/home/ci")},
		{Kind: "env", Name: "LANG", Good: strp("C.UTF-8"), Here: nil},
		{Kind: "rlimit", Name: "RLIMIT_NOFILE", Good: strp("1024 4096"), Here: strp("256 256")},
	}
	var runs []Request
	run := RunnerFunc(func(_ context.Context, r Request) (Outcome, error) {
		runs = append(runs, r)
		if slices.ContainsFunc(StartOf(r, items), func(it StartItem) bool { return it.Name == "LANG" }) {
			return Outcome{Verdict: Pass, Detail: "exit status 0"}, nil
		}
		return Outcome{Verdict: Fail, Detail: "exit status 1"}, nil
	})
	rep, err := Locate(context.Background(), g, run, Options{Start: items})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit == nil || rep.Culprit.Start == nil || rep.Culprit.Start.Name != "LANG" {
		t.Fatalf("status %s, culprit %+v; want the start item LANG", rep.Status, rep.Culprit)
	}
	// The fail end shows no resource that differs (the runner gives no
	// live results), so the search runs over the start items alone.
	if runs[0].key() != (Request{}).key() || runs[1].key() != (Request{Start: 3}).key() {
		t.Errorf("the ends ran %+v and %+v; want nothing and every start item replayed", runs[0], runs[1])
	}
	if rep.Space == nil || rep.Space.Over != "differing" || rep.Space.Candidates != 3 {
		t.Errorf("space %+v; want the 3 start items that differ", rep.Space)
	}
	if rep.StartItems != 3 {
		t.Errorf("start_items %d, want 3", rep.StartItems)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	for _, want := range []string{"located: start item env LANG", "good      \"C.UTF-8\"", "here      (not set)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	b, _ := json.Marshal(rep)
	if !strings.Contains(string(b), `"start":{"kind":"env","name":"LANG","good":"C.UTF-8","here":null}`) {
		t.Errorf("JSON lacks the start culprit: %s", b)
	}
}

// TestLocateCallAfterStartItems: with start items that do not matter, a
// call is still located, every run past the items replaying them all.
func TestLocateCallAfterStartItems(t *testing.T) {
	b := standard(t)
	g := b.graph()
	culprit := b.l("conf.read")
	items := []StartItem{{Kind: "env", Name: "HOME", Good: strp("/root"), Here: strp("/home/ci")}}
	run := RunnerFunc(func(_ context.Context, r Request) (Outcome, error) {
		if r.Prefix != 0 && r.Start != 1 {
			t.Errorf("run %+v replays calls without every start item", r)
		}
		if r.Asks(g)(culprit) {
			return Outcome{Verdict: Pass}, nil
		}
		return Outcome{Verdict: Fail}, nil
	})
	rep, err := Locate(context.Background(), g, run, Options{Start: items})
	if err != nil {
		t.Fatal(err)
	}
	// The runner shows no live result, so no run observes anything: the
	// start item alone fails, and the search widens to the resources no
	// run reached, of which the configuration file's passes. Its open is
	// named: nothing shows its read happening here.
	if rep.Status != Located || rep.Culprit == nil || rep.Culprit.Resource != "file /etc/fig79.conf" {
		t.Fatalf("status %s, culprit %+v; want the file of call %d", rep.Status, rep.Culprit, culprit)
	}
	if sp := rep.Space; sp == nil || sp.Over != "differing" || sp.Resources[0].Differs != 0 {
		t.Errorf("space %+v; want the resources no run observed", sp)
	}
	if bound := 3 + log2ceil(1+len(g.Groups())); rep.Runs > bound {
		t.Errorf("%d runs, want at most %d", rep.Runs, bound)
	}
}

// TestLocateStartItemWhenAllFails: a run that replays the calls fails
// for its own sake (its replayed writes leave no artifact), so the run
// with everything replayed fails; the run with the start items alone is
// made then, passes, and the search names the item among them.
func TestLocateStartItemWhenAllFails(t *testing.T) {
	g := standard(t).graph()
	items := []StartItem{
		{Kind: "env", Name: "HOME", Good: strp("/root"), Here: strp("/home/ci")},
		{Kind: "cwd", Good: strp("/src/build-a"), Here: strp("/w/bad")},
	}
	for _, jobs := range []int{1, 3} {
		var mu sync.Mutex // --jobs 3 runs at once
		var runs []Request
		run := RunnerFunc(func(_ context.Context, r Request) (Outcome, error) {
			mu.Lock()
			runs = append(runs, r)
			mu.Unlock()
			if r.Start >= 2 && r.Prefix == 0 {
				return Outcome{Verdict: Pass, Detail: "exit status 0"}, nil
			}
			return Outcome{Verdict: Fail, Detail: "exit status 1"}, nil
		})
		rep, err := Locate(context.Background(), g, run, Options{Start: items, Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Status != Located || rep.Culprit == nil || rep.Culprit.Start == nil || rep.Culprit.Start.Kind != "cwd" {
			t.Fatalf("--jobs %d: status %s (%s), culprit %+v; want the start item cwd", jobs, rep.Status, rep.Message, rep.Culprit)
		}
		alone := false
		for _, r := range runs {
			alone = alone || r.key() == (Request{Start: 2}).key()
		}
		if !alone {
			t.Errorf("--jobs %d: runs %+v: the start items alone were never replayed", jobs, runs)
		}
		if bound := 3 + log2ceil(len(items)); rep.Runs > bound {
			t.Errorf("--jobs %d: %d runs, want at most %d", jobs, rep.Runs, bound)
		}
	}
	// Without start items nothing changes: the search still fails.
	run := RunnerFunc(func(_ context.Context, r Request) (Outcome, error) { return Outcome{Verdict: Fail}, nil })
	rep, err := Locate(context.Background(), g, run, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != ReplayStillFails {
		t.Errorf("without start items: status %s, want %s", rep.Status, ReplayStillFails)
	}
}
