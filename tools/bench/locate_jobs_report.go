package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// parallelTarget is the issue's goal for locate with --jobs 2 against
// --jobs 1, on this 2-CPU machine: at least this many times faster.
const parallelTarget = 1.6

// writeJobs writes the table of isolation costs and parallel locates,
// with notes through note.
func (lr *locateResult) writeJobs(w io.Writer, note func(string) string) {
	fmt.Fprintf(w, "\n#### Isolation and parallel runs\n\n")
	t := newTable("scenario", "full replay", "--sandbox=off", "sandbox on/off",
		"locate --jobs 1", "--jobs 2", "speed-up", "runs --jobs 1", "runs (rounds) --jobs 2", "same culprit")
	var faster, compared int
	for _, row := range lr.rows {
		name := fmt.Sprintf("%d %s", row.s.Issue, row.s.Name)
		if row.skip != "" {
			t.add(name, "n/a", "", "", "", "", "", "", "", "")
			continue
		}
		if row.replayOff == nil {
			row.replayOff = &timing{}
		}
		for len(row.jobs) < len(jobCounts) {
			row.jobs = append(row.jobs, &locateRuns{jobs: jobCounts[len(row.jobs)]})
		}
		on, off := median(row.replay.walls), median(row.replayOff.walls)
		onOff := "n/a"
		if on > 0 && off > 0 {
			onOff = fmt.Sprintf("%.2f×", float64(on)/float64(off))
			if row.alive != "" {
				onOff = "n/m"
			}
		}
		cells := []string{name, millisOr(on, row.replay.fail), millisOr(off, row.replayOff.fail), onOff}
		var walls []time.Duration
		for _, j := range row.jobs {
			wall := median(j.walls)
			walls = append(walls, wall)
			c := millisOr(wall, j.fail)
			if j.skip != "" {
				c = "n/m " + note(fmt.Sprintf("%s, --jobs %d: not measured: %s", row.s.Name, j.jobs, j.skip))
			}
			if j.failed > 0 && len(j.walls) > 0 {
				c += " " + note(fmt.Sprintf("%s, --jobs %d: %d of %d locates failed; the first: %s", row.s.Name, j.jobs, j.failed, j.failed+len(j.walls), j.fail))
			}
			if j.note != "" && j.jobs != 1 {
				c += " " + note(row.s.Name+": "+j.note)
			}
			cells = append(cells, c)
		}
		speed := "n/a"
		if len(walls) == 2 && walls[0] > 0 && walls[1] > 0 {
			r := float64(walls[0]) / float64(walls[1])
			speed = fmt.Sprintf("%.2f×", r)
			compared++
			if r >= parallelTarget {
				faster++
			}
		}
		cells = append(cells, speed, runsOf(row.jobs[0], false), runsOf(row.jobs[1], true))
		same, why := row.sameCulprit()
		switch {
		case same:
			cells = append(cells, "yes")
		case why != "":
			cells = append(cells, "NO "+note(row.s.Name+": "+why))
		default:
			cells = append(cells, "n/a")
		}
		t.add(cells...)
	}
	t.write(w)
	fmt.Fprintf(w, "\n`full replay` and `--sandbox=off`: one `envbisect replay TRACE --prefix all -q` run in the bad environment, "+
		"with the sandbox (the default) and without, median of %d interleaved runs, inside the scenario's wrapper; `sandbox on/off` is their ratio "+
		"(n/m for --alive scenarios, whose passing run lasts the --alive time). `locate --jobs J`: the median wall time of %d "+
		"`envbisect locate --json -q --jobs J` runs, J = 1 and 2 interleaved; `speed-up` is --jobs 1 / --jobs 2; "+
		"`runs` are the median runs of each (with the last round for --jobs 2); `same culprit`: every locate, with both --jobs values, "+
		"said the same status and named the same call.\n", lr.opts.reps, lr.opts.reps)
	fmt.Fprintf(w, "\nlocate --jobs 2 at least %.1f× faster than --jobs 1: %d of %d scenarios.\n", parallelTarget, faster, compared)
	if sc := lr.startup; sc.skip == "" && sc.replay != nil && sc.replayOff != nil {
		on, off := median(sc.replay.walls), median(sc.replayOff.walls)
		if on > 0 && off > 0 {
			fmt.Fprintf(w, "\nIsolation on `/bin/true`, no wrapper: %s under `envbisect replay --prefix all -q`, %s with `--sandbox=off` "+
				"(%.2f×, +%s per run), median of %d interleaved runs.\n", millis(on), millis(off), float64(on)/float64(off), millis(on-off), lr.opts.reps)
		}
	}
}

// millisOr is a median in ms, or why there is none.
func millisOr(d time.Duration, fail string) string {
	switch {
	case d > 0:
		return millis(d)
	case fail != "":
		return "failed"
	}
	return "n/a"
}

// runsOf is the median run count of a set of locates, with the median
// last round when withRounds.
func runsOf(lr *locateRuns, withRounds bool) string {
	if len(lr.reports) == 0 {
		return "n/a"
	}
	var runs, rs []time.Duration // medians of ints, through median
	for _, rp := range lr.reports {
		runs = append(runs, time.Duration(rp.Runs))
		rs = append(rs, time.Duration(rounds(rp)))
	}
	s := fmt.Sprint(int64(median(runs)))
	if withRounds {
		s += fmt.Sprintf(" (%d)", int64(median(rs)))
	}
	return strings.TrimSpace(s)
}
