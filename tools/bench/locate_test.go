package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/envbisect/envbisect/internal/scenarios"
	"github.com/envbisect/envbisect/internal/testutil"
)

func TestMaxRuns(t *testing.T) {
	for n, want := range map[int]int{0: 3, 1: 3, 2: 4, 3: 5, 4: 5, 5: 6, 29: 8, 32: 8, 33: 9, 1000: 13, 1024: 13, 1025: 14} {
		if got := maxRuns(n); got != want {
			t.Errorf("maxRuns(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestAliveOf(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"--alive", "2s"}, "2s"},
		{[]string{"--check", "true", "--alive=500ms"}, "500ms"},
		{[]string{"--timeout", "5s"}, ""},
		{[]string{"--alive"}, ""},
	} {
		if got := aliveOf(tc.in); got != tc.want {
			t.Errorf("aliveOf(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// the scenarios themselves: exactly the port-in-use case uses --alive
	for _, s := range scenarios.All() {
		if got := aliveOf(s.Verdict); (got != "") != (s.Name == "port-in-use") {
			t.Errorf("aliveOf(%s's verdict %q) = %q", s.Name, s.Verdict, got)
		}
	}
}

func TestMillis(t *testing.T) {
	for d, want := range map[time.Duration]string{
		1500 * time.Microsecond:  "1.5 ms",
		36600 * time.Microsecond: "36.6 ms",
		2020 * time.Millisecond:  "2020 ms",
	} {
		if got := millis(d); got != want {
			t.Errorf("millis(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestScenarioSelection(t *testing.T) {
	names := scenarioNames()
	if len(names) < 10 {
		t.Fatalf("scenarioNames = %v, want the issue's scenarios", names)
	}
	got, err := pick("pidfile,fig79-config", names)
	if err != nil || len(got) != 2 || got[0] != "fig79-config" || got[1] != "pidfile" {
		t.Errorf("pick = %v, %v; want [fig79-config pidfile]", got, err)
	}
	if _, err := pick("fig79", names); err == nil {
		t.Error("pick accepted an unknown scenario")
	}
	if !strings.Contains(strings.Join(workloadNames, ","), "locate") {
		t.Error("locate is not a workload, so make bench would not run it")
	}
}

// walls makes a timing with the given run times in milliseconds.
func walls(ms ...int) *timing {
	c := &timing{}
	for _, m := range ms {
		c.walls = append(c.walls, time.Duration(m)*time.Millisecond)
	}
	return c
}

func scenario(t *testing.T, name string) scenarios.Scenario {
	t.Helper()
	s, ok := scenarios.ByName(name)
	if !ok {
		t.Fatalf("no scenario %s", name)
	}
	return s
}

func TestLocateReport(t *testing.T) {
	port := scenario(t, "port-in-use")
	lr := &locateResult{
		opts:    options{reps: 3},
		started: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC),
		startup: startupCost{calls: 25, native: walls(1, 2, 3), replay: walls(30, 31, 32)},
		rows: []*locateRow{
			{s: scenario(t, "fig79-config"), native: walls(10, 10, 10), replay: walls(35, 35, 35),
				rep: &scenarios.LocateReport{Status: "located", Runs: 6, RecordedCalls: 29, ReplayableCalls: 14}, locWall: 230 * time.Millisecond},
			{s: port, alive: aliveOf(port.Verdict), native: walls(6, 6, 6), replay: walls(2020, 2020, 2020), zero: walls(24, 24, 24),
				rep: &scenarios.LocateReport{Status: "located", Runs: 7, RecordedCalls: 30, ReplayableCalls: 16}, locWall: 6 * time.Second},
			{s: scenario(t, "pidfile"), native: walls(10, 10), replay: walls(14, 14),
				rep: &scenarios.LocateReport{Status: "located", Runs: 9, RecordedCalls: 20, ReplayableCalls: 10}, locWall: time.Second},
			{s: scenario(t, "write-read-back"), native: walls(10), replay: &timing{failed: 1, fail: "want exit 0, got exit status 3: fail"},
				locFail: "timed out after 3m0s"},
			{s: scenario(t, "process-tree"), skip: "recording in the good environment: want exit 0, got exit status 1"},
			{s: scenario(t, "polling-threads"), native: walls(220, 220, 220),
				replay: &timing{walls: walls(70, 70, 70).walls, failed: 2, fail: "want exit 0, got exit status 3: Terminated"},
				rep:    &scenarios.LocateReport{Status: "located", Runs: 10, RecordedCalls: 472, ReplayableCalls: 261}, locWall: 1310 * time.Millisecond},
		},
	}
	var b bytes.Buffer
	if err := lr.report(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"### Locate: 2026-11-22, median of 3, unpinned",
		"| 1 fig79-config | located | 29 | 14 | 6 | 8 | 0.23 s | 10.0 ms | 35.0 ms | 3.50× |",
		"| 3 port-in-use | located | 30 | 16 | 7 | 8 | 6.00 s | 6.0 ms | 2020 ms | n/m [1] |",
		"[1] port-in-use: judged with --alive 2s",
		"took 24.0 ms, 4.00× native",
		"| 2 pidfile | located | 20 | 10 | 9 (over) | 8 | 1.00 s | 10.0 ms | 14.0 ms | 1.40× |",
		"| 5 write-read-back | failed [2] | n/a | n/a | n/a | n/a |",
		"| 10.0 ms | failed [3] | n/a |",
		"[2] write-read-back, locate: timed out after 3m0s",
		"[3] write-read-back, full replay: want exit 0",
		"| 6 process-tree | n/a [4] |",
		"| 10 polling-threads | located | 472 | 261 | 10 | 12 | 1.31 s | 220 ms | 70.0 ms [5] | 0.32× |",
		"[5] polling-threads, full replay: 2 of 5 runs failed and are not in the median; the first: want exit 0, got exit status 3: Terminated",
		"Runs within ⌈log2 N⌉+3: 3 of 4 scenarios",
		"Full replay within 1.5× native: 2 of 3 scenarios",
		"Tracer start-up: `/bin/true`, 25 recorded calls, no wrapper: 2.0 ms natively, 31.0 ms under `envbisect replay --prefix all -q` (+29.0 ms)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	// every row has as many cells as the header
	var cols int
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "| ") {
			continue
		}
		n := strings.Count(l, " | ")
		if cols == 0 {
			cols = n
		} else if n != cols {
			t.Errorf("row %q has %d separators, the header %d", l, n, cols)
		}
	}

	lr = &locateResult{opts: options{reps: 1, pin: true}, skip: "needs root"}
	b.Reset()
	lr.report(&b)
	if !strings.Contains(b.String(), "pinned:") || !strings.Contains(b.String(), "Not run: needs root.") {
		t.Errorf("a skipped group's report:\n%s", b.String())
	}
}

func TestRunnerStdout(t *testing.T) {
	testutil.Require(t, testutil.File("/bin/echo"))
	var out bytes.Buffer
	rn := runner{timeout: 10 * time.Second, stdout: &out}
	r := rn.run(context.Background(), []string{"/bin/echo", `{"status": "located"}`}, false)
	if r.err != nil || r.status != 0 {
		t.Fatalf("run: %+v", r)
	}
	if got := out.String(); got != "{\"status\": \"located\"}\n" {
		t.Errorf("stdout %q", got)
	}
	rep, err := scenarios.ParseLocate(out.Bytes())
	if err != nil || rep.Status != "located" {
		t.Errorf("ParseLocate = %+v, %v", rep, err)
	}
}
