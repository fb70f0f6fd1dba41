package bisect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/envbisect/envbisect/trace"
)

// locateConf locates the read of /etc/fig79.conf, which gives here.
func locateConf(t *testing.T, here func(good *trace.Call) *trace.Call) *Report {
	t.Helper()
	b := standard(t)
	g := b.graph()
	read := b.l("conf.read")
	f := &fake{g: g, culprit: read, here: map[uint64]*trace.Call{read: here(call(t, g, read))}}
	rep, err := Locate(context.Background(), g, f, Options{Events: b.Events, TracePath: "good.envb",
		Header: &trace.Header{Command: []string{"fig79", "--serve"}}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Status != Located || rep.Culprit.Seq != read {
		t.Fatalf("got %s %+v", rep.Status, rep.Culprit)
	}
	return rep
}

func keys(t *testing.T, m any) []string {
	t.Helper()
	obj, ok := m.(map[string]any)
	if !ok {
		t.Fatalf("not an object: %v", m)
	}
	var out []string
	for k := range obj {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestReportJSON(t *testing.T) {
	rep := locateConf(t, func(c *trace.Call) *trace.Call { return changed(c, 10, 1, "key value\n") })
	raw, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	check := func(what string, v any, want ...string) {
		t.Helper()
		slices.Sort(want)
		if got := keys(t, v); !slices.Equal(got, want) {
			t.Errorf("%s members %v, want %v", what, got, want)
		}
	}
	check("report", m, "schema_version", "status", "message", "command", "culprit", "causes", "group", "runs", "recorded_calls",
		"replayable_calls", "space", "steps", "seconds")
	check("space", m["space"], "over", "candidates", "resources")
	check("space resource", m["space"].(map[string]any)["resources"].([]any)[0], "group", "title", "first", "differs", "calls")
	cu := m["culprit"].(map[string]any)
	check("culprit", cu, "seq", "proc", "thread", "who", "exe", "syscall", "call", "path", "resource",
		"good", "here", "data_diff", "explanation", "differs", "flip")
	check("flip", cu["flip"], "unit", "resource", "calls", "first_differs")
	check("good", cu["good"], "ret", "errno", "return", "call", "data")
	check("good data", cu["good"].(map[string]any)["data"], "buf")
	check("buffer", cu["good"].(map[string]any)["data"].(map[string]any)["buf"], "len", "data", "encoding")
	check("data_diff", cu["data_diff"], "buffer", "text", "diff", "good_size", "here_size", "first_difference")
	check("group", m["group"], "id", "kind", "title", "calls")
	check("group call", m["group"].(map[string]any)["calls"].([]any)[0], "seq", "syscall")
	steps := m["steps"].([]any)
	check("step", steps[0], "step", "index", "prefix", "verdict", "detail", "seconds", "taken")
	check("pass end", steps[1], "step", "index", "prefix", "resources", "verdict", "detail", "seconds", "taken")
	if m["status"] != "located" || cu["seq"] != 20.0 || cu["good"].(map[string]any)["errno"] != nil ||
		steps[0].(map[string]any)["verdict"] != "fail" || steps[1].(map[string]any)["resources"] != 1.0 {
		t.Errorf("values: %s", raw)
	}

	// It reads back.
	var back Report
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if back.Status != Located || back.Steps[1].Verdict != Pass || back.Culprit.DataDiff.Diff[3] != "-key=value" {
		t.Errorf("read back: %+v", back)
	}
	var a, b bytes.Buffer
	if err := rep.WriteText(&a); err != nil {
		t.Fatal(err)
	}
	if err := back.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("text of the report read back differs:\n%s\n---\n%s", a.String(), b.String())
	}
}

func TestReportText(t *testing.T) {
	rep := locateConf(t, func(c *trace.Call) *trace.Call { return changed(c, 10, 1, "key value\n") })
	var out bytes.Buffer
	if err := rep.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"located: call 20 of 31 recorded (2 runs, ",
		"\n\ncause     file /etc/fig79.conf (content differs)\nculprit   ",
		"\nflip      replaying file /etc/fig79.conf (4 calls, with the resources before it) flips the verdict; " +
			"it first differs at #20\n",
		"\nculprit   [1] /usr/bin/fig79: read(3, \"key=value\\n\", 4096) = 10\n",
		"\npath      /etc/fig79.conf\n",
		"\ngood      = 10\n",
		"\nhere      = 10   data differs:\n" +
			"            --- good\n" +
			"            +++ here\n" +
			"            @@ -1 +1 @@\n" +
			"            -key=value\n" +
			"            +key value\n",
		"\ngroup     file /etc/fig79.conf: 18 openat, 19 fstat, 20 read, 21 close\n",
		"\nSearched over what differs here: 1 resource (file /etc/fig79.conf), each\nreplayed whole in a run.\n",
		"\nWith the recorded answers of file /etc/fig79.conf replayed (its 4 calls,",
		"\nstep  replayed       verdict  seconds  detail\n" +
			"   1  none           fail        0.25  exit status 1\n" +
			"   2  1 resource     pass        0.25  exit status 0\n",
	}
	for _, w := range want {
		if !strings.Contains(out.String(), w) {
			t.Errorf("text lacks %q:\n%s", w, out.String())
		}
	}
}

func TestReportResults(t *testing.T) {
	tests := []struct {
		name string
		here func(*trace.Call) *trace.Call
		bad  func(*testing.T, Result)
		diff func(*testing.T, *DataDiff)
		text []string
	}{
		{"error here", func(c *trace.Call) *trace.Call { return changed(c, -13, 1, "") },
			func(t *testing.T, r Result) {
				if r.Ret == nil || *r.Ret != -13 || r.Errno != "EACCES" || r.Return != "-1 EACCES (Permission denied)" || r.Data != nil {
					t.Errorf("bad %+v", r)
				}
			},
			func(t *testing.T, d *DataDiff) {
				if d != nil {
					t.Errorf("diff %+v", d)
				}
			},
			[]string{"\nhere      = -1 EACCES (Permission denied)\n"}},
		{"shorter text", func(c *trace.Call) *trace.Call { return changed(c, 4, 1, "key=") },
			nil,
			func(t *testing.T, d *DataDiff) {
				if d == nil || !d.Text || d.GoodSize != 10 || d.HereSize != 4 || d.FirstDifference != 4 {
					t.Errorf("diff %+v", d)
				}
			},
			[]string{"\nhere      = 4   data differs:\n", "            -key=value\n            +key=\n"}},
		{"binary", func(c *trace.Call) *trace.Call { return changed(c, 10, 1, "key\x00\x01lue\n\xff") },
			nil,
			func(t *testing.T, d *DataDiff) {
				if d == nil || d.Text || d.Diff != nil || d.FirstDifference != 3 || d.GoodBytes != `"=value\n"` || d.HereBytes != `"\x00\x01lue\n\xff"` {
					t.Errorf("diff %+v", d)
				}
			},
			[]string{"\nhere      = 10   data differs: 10 bytes in both, first difference at offset 3\n",
				"            (-v shows the bytes)\n",
				"-v:            good: \"=value\\n\"\n            here: \"\\x00\\x01lue\\n\\xff\"\n"}},
		{"missing", func(*trace.Call) *trace.Call { return nil },
			func(t *testing.T, r Result) {
				if !r.Missing || r.Ret != nil {
					t.Errorf("bad %+v", r)
				}
				if b, err := json.Marshal(r); err != nil || string(b) != `{"missing":true}` {
					t.Errorf("JSON %s, %v", b, err)
				}
			},
			nil,
			[]string{"\nhere      did not happen in this environment"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := locateConf(t, tt.here)
			if tt.bad != nil {
				tt.bad(t, rep.Culprit.Here)
			}
			if tt.diff != nil {
				tt.diff(t, rep.Culprit.DataDiff)
			}
			var out, verbose bytes.Buffer
			if err := rep.WriteText(&out); err != nil {
				t.Fatal(err)
			}
			rep.Verbose = true // the bytes of binary data: only under -v
			if err := rep.WriteText(&verbose); err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.text {
				text := out.String()
				if v, ok := strings.CutPrefix(w, "-v:"); ok {
					w, text = v, verbose.String()
				}
				if !strings.Contains(text, w) {
					t.Errorf("text lacks %q:\n%s", w, text)
				}
			}
		})
	}
}

func TestReportTextStatuses(t *testing.T) {
	b := standard(t)
	g := b.graph()
	cands := Candidates(g)
	tests := []struct {
		name    string
		verdict func(r Request, n int) (Outcome, bool)
		want    []string
	}{
		{"no failure", func(Request, int) (Outcome, bool) {
			return Outcome{Verdict: Pass, Detail: "exit status 0", Seconds: 0.25}, true
		},
			[]string{"no failure (1 run, ", "\nPasses here without replay: nothing to locate.\n",
				"   1  none           pass        0.25  exit status 0\n"}},
		{"replay still fails", func(r Request, _ int) (Outcome, bool) {
			out := Outcome{Verdict: Fail, Detail: "exit status 1", Seconds: 0.5}
			if r.Prefix == All {
				out.Divergences = []Divergence{{Kind: "diverged", Proc: 1, Thread: 1, RecordedSeq: 5, Expected: "openat", LiveCall: "stat", Text: "thread [1] at call 5: expected openat, got stat"}}
				out.Diverged = true
			}
			return out, true
		}, []string{"replay still fails (3 runs, ", "\nStill fails with every recorded call replayed",
			"outside what replay gives back (argv",
			"\nDivergences of that run:\n  thread [1] at call 5: expected openat, got stat\n",
			"  envbisect replay good.envb --prefix all -- fig79 --serve 'a b'\n",
			"   2  all            fail        0.50  exit status 1 (1 divergence, -v lists them)\n",
			"   2  all            fail        0.50  exit status 1 [diverged; a re-run agreed] (1 divergence, -v lists them)\n"}},
		{"inconclusive", func(r Request, _ int) (Outcome, bool) {
			return Outcome{Verdict: Skip, Detail: "exit status 125"}, r.Prefix == cands[13] || r.Prefix == cands[14]
		}, []string{"inconclusive (8 runs, ", "the runs that would tell calls 19 to 21 apart were\nall skipped",
			"\n\n  19 [1] /usr/bin/fig79: fstat(3, ",
			"\n  20 [1] /usr/bin/fig79: read(3, \"key=value\\n\", 4096) = 10\n  21 [1] /usr/bin/fig79: close(3) = 0\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fake{g: g, culprit: b.l("conf.read"), verdict: tt.verdict}
			rep, err := Locate(context.Background(), g, f, Options{Events: b.Events, TracePath: "good.envb",
				Header: &trace.Header{Command: []string{"fig79", "--serve", "a b"}}})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := rep.WriteText(&out); err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("text lacks %q:\n%s", w, out.String())
				}
			}
			if strings.Contains(out.String(), "culprit") {
				t.Errorf("a culprit is named:\n%s", out.String())
			}
		})
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestReportTextWriteError(t *testing.T) {
	rep := locateConf(t, func(c *trace.Call) *trace.Call { return changed(c, 10, 1, "key value\n") })
	if err := rep.WriteText(failWriter{}); err == nil || err.Error() != "disk full" {
		t.Errorf("got %v", err)
	}
}

func TestVerdictText(t *testing.T) {
	for _, v := range []Verdict{Pass, Fail, Skip} {
		b, err := v.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Verdict
		if err := back.UnmarshalText(b); err != nil || back != v || string(b) != v.String() {
			t.Errorf("%s: %q, %v, %v", v, b, back, err)
		}
	}
	if _, err := Verdict(0).MarshalText(); err == nil {
		t.Error("verdict 0 marshals")
	}
	var v Verdict
	if err := v.UnmarshalText([]byte("maybe")); err == nil {
		t.Error("unknown verdict reads")
	}
	if Verdict(9).String() != "unknown" {
		t.Error(Verdict(9).String())
	}
}

func TestRequest(t *testing.T) {
	for _, tt := range []struct {
		r    Request
		seq  uint64
		in   bool
		text string
	}{
		{Request{Prefix: 0}, 1, false, "none"},
		{Request{Start: 2}, 1, false, "start 1-2"},
		{Request{Prefix: 21}, 21, true, "up to 21"},
		{Request{Prefix: 21}, 22, false, "up to 21"},
		{Request{Prefix: All}, 1 << 40, true, "all"},
	} {
		if got := tt.r.Asks(nil)(tt.seq); got != tt.in || tt.r.String() != tt.text {
			t.Errorf("%+v: Asks(%d) = %v, String %q", tt.r, tt.seq, got, tt.r.String())
		}
	}
}
