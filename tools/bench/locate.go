package main

import (
	"context"
	"fmt"
	"io"
	"math/bits"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/envbisect/envbisect/internal/scenarios"
)

// The locate group (-workloads locate) runs the locate scenarios
// (internal/scenarios). For each it records the command once in the good
// environment, then, interleaved for -n repetitions, runs the command
// natively in the bad environment and once fully replayed there
// (`envbisect replay TRACE --prefix all -q`), both through the same
// unshare+mount wrapper and the measure helper (and fully replayed with
// --sandbox=off), and finally locates it with --jobs 1 and --jobs 2,
// interleaved (locate_jobs.go); the first --jobs 1 report gives the runs
// and the recorded and replayable calls. A CPU-bound case follows the
// scenarios (locate_cpu.go).

// locateRow is what the locate group measured on one scenario.
type locateRow struct {
	s     scenarios.Scenario
	alive string // the scenario's --alive duration; "" without one
	skip  string // could not run here, or its premise does not hold

	native    *timing       // the command in the bad environment
	replay    *timing       // envbisect replay --prefix all -q, in the bad environment
	replayOff *timing       // the same with --sandbox=off
	zero      *timing       // envbisect replay --prefix 0 -q (--alive scenarios only)
	jobs      []*locateRuns // locate with --jobs 1, 2 (locate_jobs.go)

	rep     *scenarios.LocateReport // --jobs 1's first report; nil when locate gave none
	locWall time.Duration           // --jobs 1's median
	locFail string                  // locate did not finish or printed no report
	locNote string                  // locate's outcome differs from the scenario's expectation
}

// startupCost times /bin/true natively and fully replayed, without the
// wrapper: the fixed cost of starting the tracer.
type startupCost struct {
	calls                     int64 // calls in the trace of /bin/true (0: unknown)
	native, replay, replayOff *timing
	skip                      string
}

// timing is the runs of one command: the wall times of those that ended
// as they must, and how many did not. A failed run does not stop the
// others (a flaky run is a finding, not a reason to stop measuring).
type timing struct {
	walls  []time.Duration
	failed int
	fail   string // why the first failed run failed
}

// locateResult is the locate group's results, for its report.
type locateResult struct {
	opts    options
	skip    string // the group cannot run here
	rows    []*locateRow
	startup startupCost
	started time.Time
	elapsed time.Duration
}

// timed is one command the interleaved loop runs.
type timed struct {
	name string
	c    *timing
	argv []string
	want int                    // the exit status the run must have
	hold func() (func(), error) // set up around the run (the bad environment's port)
}

// scenarioNames are the names -scenarios accepts, in the order.
func scenarioNames() []string {
	var out []string
	for _, s := range scenarios.All() {
		out = append(out, s.Name)
	}
	return out
}

// cpuFlag is envbisect's placement under the run's pinning (see variants).
func (o options) cpuFlag() string {
	if o.pin {
		return "auto"
	}
	return "any"
}

// aliveOf returns the duration of an --alive flag among verdict flags.
func aliveOf(verdict []string) string {
	for i, f := range verdict {
		if v, ok := strings.CutPrefix(f, "--alive="); ok {
			return v
		}
		if f == "--alive" && i+1 < len(verdict) {
			return verdict[i+1]
		}
	}
	return ""
}

// maxRuns is the bound on locate's runs for n recorded calls:
// ⌈log2 n⌉ + 3.
func maxRuns(n int) int {
	if n <= 1 {
		return 3
	}
	return bits.Len(uint(n-1)) + 3
}

// locateMissing says why the locate group cannot run here, or "".
func (e *env) locateMissing() string {
	if os.Geteuid() != 0 {
		return "needs root (each run mounts its environment in a private mount namespace)"
	}
	if _, err := os.Stat(e.envbisect); err != nil {
		return fmt.Sprintf("%s not built (make build)", e.envbisect)
	}
	for _, bin := range []string{"unshare", "mount", "gcc", "sh"} {
		if _, err := exec.LookPath(bin); err != nil {
			return bin + " not installed"
		}
	}
	return ""
}

// locate runs the locate group and writes its report.
func (e *env) locate(ctx context.Context, o options, out, progress io.Writer) error {
	lr := &locateResult{opts: o, started: time.Now()}
	if lr.skip = e.locateMissing(); lr.skip != "" {
		fmt.Fprintf(progress, "bench: locate: %s; skipping the group\n", lr.skip)
	} else {
		var err error
		if lr.startup, err = e.startupCost(ctx, o, progress); err != nil {
			return err
		}
		for _, s := range scenarios.All() {
			if !slices.Contains(o.scenarios, s.Name) {
				continue
			}
			row, err := e.locateScenario(ctx, o, s, progress)
			if err != nil {
				return err
			}
			lr.rows = append(lr.rows, row)
		}
		if o.locateIters > 0 {
			row, err := e.locateCPUBound(ctx, o, progress)
			if err != nil {
				return err
			}
			lr.rows = append(lr.rows, row)
		}
	}
	lr.elapsed = time.Since(lr.started)
	return lr.report(out)
}

// startupCost records /bin/true and times it natively and fully replayed.
func (e *env) startupCost(ctx context.Context, o options, progress io.Writer) (startupCost, error) {
	sc := startupCost{native: &timing{}, replay: &timing{}, replayOff: &timing{}}
	trace := filepath.Join(e.tmp, "true.envb")
	r := e.run.run(ctx, []string{e.envbisect, "record", "--cpu", o.cpuFlag(), "-o", trace, "--", "/bin/true"}, false)
	if err := ctx.Err(); err != nil {
		return sc, err
	}
	if r.err != nil || r.status != 0 {
		sc.skip = "recording /bin/true failed: " + describe(r)
		return sc, nil
	}
	if n, err := countCalls(ctx, e.envbisect, trace, o.timeout); err == nil {
		sc.calls = n
	}
	err := e.interleave(ctx, o, "startup /bin/true", e.run, []timed{
		{name: "native", c: sc.native, argv: o.pinned([]string{"/bin/true"})},
		{name: "full replay", c: sc.replay, argv: []string{e.envbisect, "replay", trace, "--prefix", "all", "-q", "--cpu", o.cpuFlag(), "--", "/bin/true"}},
		{name: "full replay, --sandbox=off", c: sc.replayOff, argv: []string{e.envbisect, "replay", trace, "--prefix", "all", "-q", "--cpu", o.cpuFlag(), "--sandbox=off", "--", "/bin/true"}},
	}, progress)
	return sc, err
}

// locateScenario prepares one scenario, records it in the good
// environment, times native and fully replayed runs in the bad one, and
// locates it once. The error is the context's only: anything else that
// goes wrong is in the row.
func (e *env) locateScenario(ctx context.Context, o options, s scenarios.Scenario, progress io.Writer) (*locateRow, error) {
	row := &locateRow{s: s, alive: aliveOf(s.Verdict), native: &timing{}, replay: &timing{}, replayOff: &timing{}}
	if row.alive != "" {
		row.zero = &timing{}
	}
	label := "locate " + s.Name
	w, err := s.Prepare(e.root, filepath.Join(e.tmp, "locate", s.Name))
	if err != nil {
		row.skip = err.Error()
		fmt.Fprintf(progress, "bench: %s: %v\n", label, err)
		return row, nil
	}
	good, bad := e.run, e.run
	good.env, bad.env = s.Environ(scenarios.Good), s.Environ(scenarios.Bad)
	hold := func() (func(), error) { return s.Hold(w) }
	cpu := o.cpuFlag()

	trace := w.Trace("good.envb")
	r := good.run(ctx, s.RecordArgv(w, e.envbisect, trace, "--cpu", cpu), false)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.err != nil || r.status != s.Want.GoodExit {
		row.skip = fmt.Sprintf("recording in the good environment: want exit %d, got %s", s.Want.GoodExit, describe(r))
		fmt.Fprintf(progress, "bench: %s: %s\n", label, row.skip)
		return row, nil
	}

	native := o.pinned(s.NativeArgv(w, scenarios.Bad))
	for i := 0; i < o.warmup; i++ {
		r := runHeld(ctx, bad, native, hold)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if r.err != nil || r.status != s.Want.BadExit {
			row.skip = fmt.Sprintf("the native run in the bad environment: want exit %d, got %s", s.Want.BadExit, describe(r))
			fmt.Fprintf(progress, "bench: %s: %s\n", label, row.skip)
			return row, nil
		}
	}

	// A full replay passes (exit 0) except where the scenario says that
	// replay cannot help (locate's replay-still-fails: exit 3).
	replayWant := 0
	if s.Want.Status == "replay-still-fails" {
		replayWant = 3
	}
	ts := []timed{
		{name: "native", c: row.native, argv: native, want: s.Want.BadExit, hold: hold},
		{name: "full replay", c: row.replay, argv: s.ReplayArgv(w, e.envbisect, trace, "all", "-q", "--cpu", cpu), want: replayWant, hold: hold},
		{name: "full replay, --sandbox=off", c: row.replayOff, argv: s.ReplayArgv(w, e.envbisect, trace, "all", "-q", "--cpu", cpu, "--sandbox=off"), want: replayWant, hold: hold},
	}
	if row.zero != nil {
		// nothing replayed: the failing run, traced; it fails (exit 3)
		ts = append(ts, timed{name: "replay --prefix 0", c: row.zero, argv: s.ReplayArgv(w, e.envbisect, trace, "0", "-q", "--cpu", cpu), want: 3, hold: hold})
	}
	if err := e.interleave(ctx, o, label, bad, ts, progress); err != nil {
		return nil, err
	}

	loc := bad
	loc.timeout = min(o.timeout, s.LocateTimeout())
	argv := func(extra ...string) []string { return s.LocateArgv(w, e.envbisect, trace, extra...) }
	if err := e.locateJobs(ctx, o, s, argv, loc, hold, row, progress); err != nil {
		return nil, err
	}
	return row, nil
}

// runHeld runs argv with hold's set-up (the bad environment's held port)
// in place; a hold that cannot be set up is the run's error.
func runHeld(ctx context.Context, rn runner, argv []string, hold func() (func(), error)) result {
	if hold != nil {
		release, err := hold()
		if err != nil {
			return result{err: err, status: -1}
		}
		defer release()
	}
	return rn.run(ctx, argv, false)
}

// interleave runs each command once per repetition, in an order that
// rotates from one repetition to the next, and collects the wall times of
// the runs that ended with the expected status; the others are counted.
func (e *env) interleave(ctx context.Context, o options, label string, rn runner, ts []timed, progress io.Writer) error {
	n := len(ts)
	for rep := 0; rep < o.reps; rep++ {
		for k := 0; k < n; k++ {
			t := ts[(rep+k)%n]
			var stdout tailBuffer // replay's verdict line, for a failure
			rs := rn
			rs.stdout = &stdout
			r := runHeld(ctx, rs, t.argv, t.hold)
			if err := ctx.Err(); err != nil {
				return err
			}
			if r.err != nil || r.status != t.want {
				why := fmt.Sprintf("want exit %d, got %s", t.want, describe(r))
				if l := lastLine(stdout.String()); l != "" {
					why += " (stdout: " + l + ")"
				}
				if t.c.failed++; t.c.fail == "" {
					t.c.fail = why
				}
				fmt.Fprintf(progress, "bench: %s %s %d/%d: FAILED: %s\n", label, t.name, rep+1, o.reps, why)
				continue
			}
			fmt.Fprintf(progress, "bench: %s %s %d/%d: %s\n", label, t.name, rep+1, o.reps, millis(r.wall))
			t.c.walls = append(t.c.walls, r.wall)
		}
	}
	return nil
}
