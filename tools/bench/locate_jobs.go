package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/envbisect/envbisect/internal/scenarios"
)

// Parallel locate and the cost of isolation (issue 12). For each scenario
// the locate group times `envbisect locate --json -q --jobs J` for J = 1
// and J = 2, interleaved for -n repetitions (the order alternating), and
// compares the culprits; and it times a fully replayed run with
// `--sandbox=off` next to the default (the sandbox on).

// jobCounts are the --jobs values locate is timed with.
var jobCounts = []int{1, 2}

// locateRuns are the locates of one scenario with one --jobs value.
type locateRuns struct {
	jobs    int
	walls   []time.Duration // of the runs that printed a report
	reports []*scenarios.LocateReport
	fail    string // why the first run without a report failed
	failed  int
	note    string // the first report whose outcome is not the scenario's
	skip    string // not measured: why
}

// culprit names a report's culprit in one line ("" for none).
func culprit(rep *scenarios.LocateReport) string {
	switch c := rep.Culprit; {
	case c == nil:
		return ""
	case c.Start != nil:
		return fmt.Sprintf("start item %s %s", c.Start.Kind, c.Start.Name)
	default:
		return fmt.Sprintf("#%d %s %s", c.Seq, c.Syscall, c.Path)
	}
}

// rounds is the last round of a report's runs (0: sequential).
func rounds(rep *scenarios.LocateReport) int {
	n := 0
	for _, st := range rep.Steps {
		n = max(n, st.Round)
	}
	return n
}

// locateJobs times locate with each of jobCounts, interleaved, and fills
// in row.jobs; row.rep and row.locWall are those of --jobs 1 (the
// sequential search the runs bound is about).
//
// argv is the locate command with the given extra flags. A scenario
// whose command listens on a fixed port (Scenario.NeedsPort) is located
// with --jobs 1 only: parallel runs share the network (the sandbox
// isolates the file system), so two of its runs at once contend for the
// port, and a run can wait for ever.
func (e *env) locateJobs(ctx context.Context, o options, s scenarios.Scenario, argv func(extra ...string) []string,
	loc runner, hold func() (func(), error), row *locateRow, progress io.Writer) error {
	label := "locate " + s.Name
	cpu := o.cpuFlag()
	for _, j := range jobCounts {
		lr := &locateRuns{jobs: j}
		if j > 1 && s.NeedsPort {
			lr.skip = "listens on a fixed port: parallel runs share the network, so two runs at once contend for the port"
		}
		row.jobs = append(row.jobs, lr)
	}
	for rep := 0; rep < o.reps; rep++ {
		for k := range row.jobs {
			lr := row.jobs[(rep+k)%len(row.jobs)]
			if lr.skip != "" {
				continue
			}
			var stdout bytes.Buffer
			rl := loc
			rl.stdout = &stdout
			r := runHeld(ctx, rl, argv("--json", "-q", "--cpu", cpu, "--jobs", fmt.Sprint(lr.jobs)), hold)
			if err := ctx.Err(); err != nil {
				return err
			}
			var rp *scenarios.LocateReport
			why := ""
			if r.err != nil {
				why = describe(r)
			} else if p, err := scenarios.ParseLocate(stdout.Bytes()); err != nil {
				why = fmt.Sprintf("%v (%s)", err, describe(r))
			} else {
				rp = p
			}
			if rp == nil {
				if lr.failed++; lr.fail == "" {
					lr.fail = why
				}
				fmt.Fprintf(progress, "bench: %s --jobs %d %d/%d: FAILED: %s\n", label, lr.jobs, rep+1, o.reps, why)
				continue
			}
			if (r.status != s.Want.ExitCode || rp.Status != s.Want.Status) && lr.note == "" {
				lr.note = fmt.Sprintf("locate --jobs %d said %s (exit %d), the scenario expects %s (exit %d): %s",
					lr.jobs, rp.Status, r.status, s.Want.Status, s.Want.ExitCode, rp.Message)
			}
			lr.walls = append(lr.walls, r.wall)
			lr.reports = append(lr.reports, rp)
			fmt.Fprintf(progress, "bench: %s --jobs %d %d/%d: %s in %d runs (%d rounds), %s\n",
				label, lr.jobs, rep+1, o.reps, rp.Status, rp.Runs, rounds(rp), millis(r.wall))
		}
	}
	seq := row.jobs[0]
	switch {
	case len(seq.reports) > 0:
		row.rep, row.locWall, row.locNote = seq.reports[0], median(seq.walls), seq.note
	default:
		row.locFail = seq.fail
	}
	return nil
}

// sameCulprit says whether every locate of the row, with every --jobs
// value, named the same culprit with the same status; and if not, the
// first that differs.
func (row *locateRow) sameCulprit() (bool, string) {
	var first *scenarios.LocateReport
	for _, lr := range row.jobs {
		for _, rp := range lr.reports {
			if first == nil {
				first = rp
				continue
			}
			if rp.Status != first.Status || culprit(rp) != culprit(first) {
				return false, fmt.Sprintf("--jobs %d: %s %s; first: %s %s", lr.jobs, rp.Status, culprit(rp), first.Status, culprit(first))
			}
		}
	}
	return first != nil, ""
}
