package scenarios_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/scenarios"
	"github.com/envbisect/envbisect/internal/testutil"
)

// cmdTimeout bounds the native runs and recordings of one scenario.
const cmdTimeout = time.Minute

// require gates a test on what the scenarios need: root (for the mount
// namespaces), ptrace and seccomp (for envbisect), unshare, mount, sh and
// gcc.
func require(t *testing.T) {
	t.Helper()
	testutil.Require(t, testutil.Root, testutil.Ptrace, testutil.Seccomp,
		testutil.Binary("unshare"), testutil.Binary("mount"), testutil.Binary("gcc"),
		testutil.File("/bin/sh"), testutil.Binary("sleep"))
}

// prepare builds s's victims and environments in a fresh directory.
func prepare(t *testing.T, s *scenarios.Scenario) *scenarios.Work {
	t.Helper()
	w, err := s.Prepare(testutil.RepoRoot(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// runBad runs argv in s's bad environment: with its BadEnv and while its
// Occupy holds.
func runBad(t *testing.T, s *scenarios.Scenario, w *scenarios.Work, timeout time.Duration, argv []string) scenarios.Result {
	t.Helper()
	r, err := s.RunIn(context.Background(), scenarios.Bad, w, timeout, argv)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// record records s in its good environment into WORK/name and reads the
// trace back.
func record(t *testing.T, s *scenarios.Scenario, w *scenarios.Work, bin, name string) (string, *scenarios.Trace) {
	t.Helper()
	trace := w.Trace(name)
	r := scenarios.Run(context.Background(), cmdTimeout, s.Environ(scenarios.Good), s.RecordArgv(w, bin, trace)...)
	if r.Err != nil || r.Code != 0 {
		t.Fatalf("recording in the good environment must exit 0:\n%s", r)
	}
	tr, err := scenarios.ReadTrace(context.Background(), bin, trace)
	if err != nil {
		t.Fatal(err)
	}
	return trace, tr
}

// TestEnvironments checks every scenario's premises without locate: the
// victims build, the command passes natively in the good environment and
// fails (with the expected status) in the bad one, a recording in the good
// environment works and holds the expected culprit call, and a recording in
// the bad environment shows that call failing as expected.
func TestEnvironments(t *testing.T) {
	require(t)
	bin := testutil.Envbisect(t)
	for _, s := range scenarios.All() {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			w := prepare(t, &s)
			ctx := context.Background()

			r := scenarios.Run(ctx, cmdTimeout, s.Environ(scenarios.Good), s.NativeArgv(w, scenarios.Good)...)
			if r.Err != nil || r.Code != s.Want.GoodExit {
				t.Errorf("native run in the good environment: want exit %d\n%s", s.Want.GoodExit, r)
			}
			r = runBad(t, &s, w, cmdTimeout, s.NativeArgv(w, scenarios.Bad))
			if r.Err != nil || r.Code != s.Want.BadExit {
				t.Errorf("native run in the bad environment: want exit %d\n%s", s.Want.BadExit, r)
			}

			_, good := record(t, &s, w, bin, "good.envb")
			badTrace := w.Trace("bad.envb")
			r = runBad(t, &s, w, cmdTimeout, s.RecordIn(scenarios.Bad, w, bin, badTrace))
			if r.Err != nil || r.Code != s.Want.BadExit {
				t.Fatalf("recording in the bad environment: want exit %d\n%s", s.Want.BadExit, r)
			}
			bad, err := scenarios.ReadTrace(ctx, bin, badTrace)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("good trace: %d calls; bad trace: %d calls", good.MaxSeq(), bad.MaxSeq())

			if c := s.Want.Culprit; c != nil {
				g, ok := c.Find(w, good)
				if !ok {
					t.Fatalf("the good trace has no %s", c.Describe(w))
				}
				if g.Errno != "" || g.Ret == nil {
					t.Errorf("expected culprit %v failed in the good environment", g)
				}
				b, ok := c.Find(w, bad)
				if !ok {
					t.Fatalf("the bad trace has no %s", c.Describe(w))
				}
				if b.Errno != c.BadErrno {
					t.Errorf("expected culprit in the bad trace is %v; want errno %q", b, c.BadErrno)
				}
				t.Logf("expected culprit: good %v, bad %v", g, b)
			}
			if d := s.Want.Divergence; d != nil {
				if n := len(good.CallsOn(w, d.Recorded)); n == 0 {
					t.Errorf("the good trace has no call on %s", w.EnvPath(d.Recorded))
				}
				if n := len(good.CallsOn(w, d.Live)); n != 0 {
					t.Errorf("the good trace has %d calls on %s, want none", n, w.EnvPath(d.Live))
				}
				if n := len(bad.CallsOn(w, d.Live)); n == 0 {
					t.Errorf("the bad trace has no call on %s", w.EnvPath(d.Live))
				}
				if n := len(bad.CallsOn(w, d.Recorded)); n != 0 {
					t.Errorf("the bad trace has %d calls on %s, want none", n, w.EnvPath(d.Recorded))
				}
			}
		})
	}
}

// TestScenarios records every scenario in its good environment and
// locates it in its bad one, checking locate's JSON report against the
// expected culprit found in the trace.
func TestScenarios(t *testing.T) {
	require(t)
	bin := testutil.Envbisect(t)
	if r := scenarios.Run(context.Background(), cmdTimeout, nil, bin, "locate", "--help"); r.Code != 0 {
		t.Fatalf("envbisect has no working locate command:\n%s", r)
	}
	for _, s := range scenarios.All() {
		t.Run(s.Name, func(t *testing.T) {
			w := prepare(t, &s)
			for i := range s.Repeats() {
				name := fmt.Sprintf("good-%d.envb", i+1)
				if s.Repeats() > 1 {
					t.Logf("round %d of %d", i+1, s.Repeats())
				}
				trace, tr := record(t, &s, w, bin, name)
				locate(t, &s, w, bin, trace, tr)
				if s.Want.Divergence != nil {
					replayAll(t, &s, w, bin, trace, tr)
				}
				if t.Failed() {
					return
				}
			}
		})
	}
}

// locate runs locate --json on trace in the bad environment and checks
// its report.
func locate(t *testing.T, s *scenarios.Scenario, w *scenarios.Work, bin, trace string, tr *scenarios.Trace) {
	t.Helper()
	var want scenarios.TraceCall
	c := s.Want.Culprit
	if c != nil {
		var ok bool
		if want, ok = c.Find(w, tr); !ok {
			t.Fatalf("the recorded trace has no %s", c.Describe(w))
		}
		t.Logf("expected culprit: %v (%d recorded calls)", want, tr.MaxSeq())
	}

	r := runBad(t, s, w, s.LocateTimeout(), s.LocateArgv(w, bin, trace, "--json"))
	if r.Err != nil {
		t.Fatalf("locate did not finish:\n%s", r)
	}
	rep, err := scenarios.ParseLocate(r.Stdout)
	if err != nil {
		t.Fatalf("%v\n%s", err, r)
	}
	t.Logf("locate: %s in %d runs, %.1fs: %s", rep.Status, rep.Runs, rep.Seconds, rep.Message)
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	defer report(t, "locate", &problems, r)
	if r.Code != s.Want.ExitCode {
		fail("locate exited %d, want %d", r.Code, s.Want.ExitCode)
	}
	if rep.Status != s.Want.Status {
		fail("locate status %q, want %q", rep.Status, s.Want.Status)
	}
	if s.Want.Start != "" {
		got := rep.Culprit
		switch {
		case got == nil || got.Start == nil:
			fail("culprit %+v, want the start item %s", got, s.Want.Start)
		case got.Start.Kind+" "+got.Start.Name != s.Want.Start:
			fail("culprit start item %s %s, want %s", got.Start.Kind, got.Start.Name, s.Want.Start)
		case got.Start.Good != nil:
			fail("the recorded value of %s is %q, want not set", s.Want.Start, *got.Start.Good)
		}
		if limit := scenarios.RunBound(rep.RecordedCalls); rep.Runs > limit || rep.Runs < 1 {
			fail("locate took %d runs for %d recorded calls, want 1 to ⌈log2 N⌉+3 = %d", rep.Runs, rep.RecordedCalls, limit)
		}
		return
	}
	if c == nil {
		if rep.Keys["culprit"] {
			fail("status %s, yet the report has a culprit", rep.Status)
		}
		return
	}

	if uint64(rep.RecordedCalls) != tr.MaxSeq() {
		fail("recorded_calls %d, the trace has %d calls", rep.RecordedCalls, tr.MaxSeq())
	}
	if limit := scenarios.RunBound(rep.RecordedCalls); rep.Runs > limit || rep.Runs < 1 {
		fail("locate took %d runs for %d recorded calls, want 1 to ⌈log2 N⌉+3 = %d", rep.Runs, rep.RecordedCalls, limit)
	}
	got := rep.Culprit
	if got == nil {
		fail("no culprit in the report; want %v", want)
		return
	}
	if got.Seq != want.Seq || got.Syscall != want.Syscall {
		fail("culprit #%d %s (%s), want %v", got.Seq, got.Syscall, got.Call, want)
	}
	if got.Proc != want.Proc || got.Thread != want.TID {
		fail("culprit in process %d thread %d, want %d:%d", got.Proc, got.Thread, want.Proc, want.TID)
	}
	if c.Path != "" {
		p := w.EnvPath(c.Path)
		if got.Path != p && !(got.Path == "" && strings.Contains(got.Resource, p)) {
			fail("culprit path %q (resource %q), want %s", got.Path, got.Resource, p)
		}
	}
	if c.Resource != "" && !strings.Contains(got.Resource, w.Expand(c.Resource)) {
		fail("culprit resource %q does not name %s", got.Resource, w.Expand(c.Resource))
	}
	if c.Exe != "" && !strings.Contains(filepath.Base(got.Exe), c.Exe) {
		fail("culprit executable %q, want %s", got.Exe, c.Exe)
	}
	if c.Content && (got.Content == nil || len(got.Content.DataDiff) == 0 || got.Content.Path != got.Path) {
		fail("the culprit opens a file whose content differs, but the report shows no later read of it with a data diff (content %+v)", got.Content)
	}
	if got.Good.Errno != want.Errno || got.Good.Ret == nil || want.Ret == nil || *got.Good.Ret != *want.Ret {
		fail("culprit's good result %s, the trace says %v", got.Good, want)
	}
	switch {
	case got.Here.Missing:
		fail("the culprit's live call is missing in the bad environment, want one that returns %q", c.BadErrno)
	case got.Here.Errno != c.BadErrno:
		fail("culprit's bad result has errno %q, want %q", got.Here.Errno, c.BadErrno)
	case c.BadErrno == "" && (got.Here.Ret == nil || *got.Here.Ret < 0):
		fail("culprit's bad result %s, want a successful call whose data differ", got.Here)
	}

	if s.Want.Divergence != nil && rep.Mechanism != "materialized" {
		// The object search's runs replay nothing, so none can diverge:
		// the divergence is the call-level search's to report.
		n := 0
		for _, st := range rep.Steps {
			n += len(st.Divergences)
		}
		if n == 0 {
			fail("no step of the search reports a divergence, yet every run that replays past %s diverges", w.EnvPath(s.Want.Divergence.Recorded))
		}
	}
}

// report fails t with every problem found in one command's output, and
// the command's output once.
func report(t *testing.T, what string, problems *[]string, r scenarios.Result) {
	t.Helper()
	if len(*problems) > 0 {
		t.Errorf("%s:\n- %s\n%s", what, strings.Join(*problems, "\n- "), r)
	}
}

// replayAll runs one fully replayed run in the bad environment of a
// scenario with a divergence and checks that the divergence is reported
// and that nothing was replayed against the wrong call.
func replayAll(t *testing.T, s *scenarios.Scenario, w *scenarios.Work, bin, trace string, tr *scenarios.Trace) {
	t.Helper()
	d := s.Want.Divergence
	r := runBad(t, s, w, s.LocateTimeout(), s.ReplayArgv(w, bin, trace, "all", "--json"))
	if r.Err != nil {
		t.Fatalf("replay did not finish:\n%s", r)
	}
	rep, err := scenarios.ParseReplay(r.Stdout)
	if err != nil {
		t.Fatalf("%v\n%s", err, r)
	}
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	defer report(t, "replay --prefix all", &problems, r)
	recorded, live := w.EnvPath(d.Recorded), w.EnvPath(d.Live)
	// The culprit is replayed and the divergent calls execute: the
	// program passes. A recorded result written into the live calls on
	// the other file would make it exit 3 (see profiles.c).
	if rep.Verdict != "pass" {
		fail("fully replayed run: verdict %q (%s), want pass", rep.Verdict, rep.Detail)
	}
	reported := false
	for _, dv := range rep.Divergences {
		if strings.Contains(dv.Got, live) || strings.Contains(dv.Expected, recorded) {
			reported = true
		}
	}
	if !reported {
		fail("no divergence names %s (live) or %s (recorded): %+v", live, recorded, rep.Divergences)
	}
	wrong := map[uint64]bool{}
	for _, c := range tr.CallsOn(w, d.Recorded) {
		wrong[c.Seq] = true
	}
	sawLive := false
	for _, c := range rep.Calls {
		if c.Path == live {
			sawLive = true
		}
		if c.Action != "replay" {
			continue
		}
		if c.Path == live {
			fail("live call %s %s was replayed (recorded #%d)", c.Syscall, c.Path, c.Seq)
		}
		if wrong[c.Seq] {
			fail("recorded call #%d %s on %s was replayed, yet the live run never touches that file", c.Seq, c.Syscall, recorded)
		}
	}
	if !sawLive {
		fail("the run's calls do not list the live calls on %s", live)
	}
}
