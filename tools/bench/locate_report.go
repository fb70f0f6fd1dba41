package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// replayTarget is the issue's target for one fully replayed run: at most
// this many times a native run of the same command.
const replayTarget = 1.5

// report writes the locate group's Markdown table and the notes under it.
func (lr *locateResult) report(w io.Writer) error {
	o := lr.opts
	place := "unpinned (envbisect `--cpu any`)"
	if o.pin {
		place = "pinned: native runs under `taskset -c N-1`, envbisect with `--cpu auto` (its default: tracer and command on the last CPU)"
	}
	fmt.Fprintf(w, "### Locate: %s, median of %d, %s\n\n", lr.started.Format("2006-01-02"), o.reps, place)
	fmt.Fprintf(w, "Machine: %s. Locate group took %s.\n\n", machine(), lr.elapsed.Round(time.Second))
	if lr.skip != "" {
		fmt.Fprintf(w, "Not run: %s.\n", lr.skip)
		return nil
	}

	var notes footnotes
	note := notes.ref
	timeCell := func(row *locateRow, what string, c *timing) string {
		switch {
		case len(c.walls) > 0 && c.failed > 0:
			return millis(median(c.walls)) + " " + note(fmt.Sprintf("%s, %s: %d of %d runs failed and are not in the median; the first: %s",
				row.s.Name, what, c.failed, c.failed+len(c.walls), c.fail))
		case len(c.walls) > 0:
			return millis(median(c.walls))
		case c.fail != "":
			return "failed " + note(row.s.Name+", "+what+": "+c.fail)
		}
		return "n/a"
	}

	t := newTable("scenario", "locate says", "recorded calls", "replayable", "runs", "bound ⌈log2 N⌉+3",
		"locate wall", "native", "full replay", "ratio")
	var within, measured, meets, ratios int
	for _, row := range lr.rows {
		name := fmt.Sprintf("%d %s", row.s.Issue, row.s.Name)
		if row.skip != "" {
			t.add(name, "n/a "+note(row.s.Name+": "+row.skip), "", "", "", "", "", "", "", "")
			continue
		}
		status, recorded, replayable, runs, bound := "", "n/a", "n/a", "n/a", "n/a"
		if row.rep == nil {
			status = "failed " + note(row.s.Name+", locate: "+row.locFail)
		}
		if rep := row.rep; rep != nil {
			status = rep.Status
			if row.locNote != "" {
				status += " " + note(row.s.Name+": "+row.locNote)
			}
			recorded, replayable = thousands(int64(rep.RecordedCalls)), thousands(int64(rep.ReplayableCalls))
			limit := maxRuns(rep.RecordedCalls)
			runs, bound = fmt.Sprint(rep.Runs), fmt.Sprint(limit)
			measured++
			if rep.Runs <= limit {
				within++
			} else {
				runs += " (over)"
			}
		}
		nat, rep := median(row.native.walls), median(row.replay.walls)
		ratio := "n/a"
		switch {
		case row.alive != "":
			ratio = "n/m " + note(aliveNote(row))
		case nat > 0 && rep > 0:
			r := float64(rep) / float64(nat)
			ratio = fmt.Sprintf("%.2f×", r)
			ratios++
			if r <= replayTarget {
				meets++
			}
		}
		t.add(name, status, recorded, replayable, runs, bound, seconds(row.locWall),
			timeCell(row, "native", row.native), timeCell(row, "full replay", row.replay), ratio)
	}
	t.write(w)

	fmt.Fprintf(w, "\n`recorded calls`, `replayable` and `runs` are from `envbisect locate --json` (runs include both endpoint checks); "+
		"the bound is on N = recorded calls. `locate wall` is the median of the `locate --json -q --jobs 1` runs below. `native` is the command and "+
		"`full replay` one `envbisect replay TRACE --prefix all -q` run of it, both in the bad environment, inside the same "+
		"`unshare --mount` + bind-mount wrapper, median of %d interleaved runs; `ratio` is full replay / native. "+
		"Everything is timed by the measure helper, from fork to wait4.\n", o.reps)
	fmt.Fprintf(w, "\nRuns within ⌈log2 N⌉+3: %d of %d scenarios located or checked. "+
		"Full replay within %.1f× native: %d of %d scenarios (the --alive ones excluded).\n", within, measured, replayTarget, meets, ratios)
	if sc := lr.startup; sc.skip != "" {
		fmt.Fprintf(w, "\nTracer start-up: not measured: %s.\n", sc.skip)
	} else if nat, rep := median(sc.native.walls), median(sc.replay.walls); nat > 0 && rep > 0 {
		calls := ""
		if sc.calls > 0 {
			calls = fmt.Sprintf(", %d recorded calls", sc.calls)
		}
		fmt.Fprintf(w, "\nTracer start-up: `/bin/true`%s, no wrapper: %s natively, %s under `envbisect replay --prefix all -q` "+
			"(+%s), median of %d interleaved runs.\n", calls, millis(nat), millis(rep), millis(rep-nat), o.reps)
	} else {
		var why []string
		for _, c := range []*timing{sc.native, sc.replay} {
			if c.fail != "" {
				why = append(why, c.fail)
			}
		}
		fmt.Fprintf(w, "\nTracer start-up: failed: %s.\n", strings.Join(why, "; "))
	}
	lr.writeJobs(w, note)
	notes.write(w)
	return nil
}

// aliveNote explains why an --alive scenario has no ratio, with the ratio
// of its failing run traced with nothing replayed instead.
func aliveNote(row *locateRow) string {
	s := fmt.Sprintf("%s: judged with --alive %s: the fully replayed run passes by staying up for %s and is then stopped, "+
		"so its time is that wait, not the tracer's cost; the ratio is not meaningful.", row.s.Name, row.alive, row.alive)
	nat := median(row.native.walls)
	if row.zero == nil {
		return s
	}
	switch z := median(row.zero.walls); {
	case z > 0 && nat > 0:
		s += fmt.Sprintf(" Instead, the failing run traced with nothing replayed (`replay --prefix 0 -q`) took %s, %.2f× native.",
			millis(z), float64(z)/float64(nat))
	case row.zero.fail != "":
		s += " The run with nothing replayed (`replay --prefix 0 -q`) failed: " + row.zero.fail
	}
	return s
}

// millis formats a short duration in milliseconds.
func millis(d time.Duration) string {
	if d >= 100*time.Millisecond {
		return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}
