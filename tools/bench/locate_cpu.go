package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/envbisect/envbisect/internal/scenarios"
)

// The locate group's CPU-bound case (issue 12's figures): the issue's
// scenarios run for milliseconds, so a locate of them is mostly fixed
// costs. In cloop-config the tracer's work dominates every run: cloop
// (testdata/victims/cloop.c) makes -locate-cloop-iters open+read+close
// of a data file, then the command reads its configuration, which is
// "mode=good" in the good environment and "mode=bad" in the bad one. It
// is measured like a scenario: native, fully replayed with and without
// the sandbox, and located with --jobs 1 and 2.

// cpuBoundScenario describes cloop-config for the locate group's rows.
func cpuBoundScenario() scenarios.Scenario {
	return scenarios.Scenario{
		Name: "cloop-config", Issue: 12,
		Want: scenarios.Want{GoodExit: 0, BadExit: 1, Status: "located", ExitCode: 0},
	}
}

// cpuBoundScript runs cloop ($1 iterations of $2/data), then checks the
// configuration $2/conf.
const cpuBoundScript = `"$0" "$1" "$2/data" >/dev/null && grep -q mode=good "$2/conf"`

// locateCPUBound prepares, records and measures cloop-config.
func (e *env) locateCPUBound(ctx context.Context, o options, progress io.Writer) (*locateRow, error) {
	s := cpuBoundScenario()
	row := &locateRow{s: s, native: &timing{}, replay: &timing{}, replayOff: &timing{}}
	label := "locate " + s.Name
	if e.cloop == "" {
		row.skip = fmt.Sprintf("cannot build cloop: %v", e.gccErr)
		return row, nil
	}
	dir := filepath.Join(e.tmp, "locate", s.Name)
	envDir := filepath.Join(dir, "env")
	data := strings.Repeat("envbisect bench\n", 32)
	for _, side := range []string{"good", "bad"} {
		if err := os.MkdirAll(filepath.Join(dir, side), 0o755); err != nil {
			return nil, err
		}
		for name, content := range map[string]string{"conf": "mode=" + side + "\n", "data": data} {
			if err := os.WriteFile(filepath.Join(dir, side, name), []byte(content), 0o644); err != nil {
				return nil, err
			}
		}
	}
	if err := os.MkdirAll(envDir, 0o755); err != nil {
		return nil, err
	}
	cmd := []string{"/bin/sh", "-c", cpuBoundScript, e.cloop, fmt.Sprint(o.locateIters), envDir}
	// inEnv runs argv with side's tree bound over env/, as the scenarios do.
	inEnv := func(side string, argv ...string) []string {
		return append([]string{"unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
			`mount --bind "$1" "$2" && shift 2 && exec "$@"`, "sh", filepath.Join(dir, side), envDir}, argv...)
	}
	cpu := o.cpuFlag()
	trace := filepath.Join(dir, "good.envb")
	r := e.run.run(ctx, inEnv("good", append([]string{e.envbisect, "record", "-o", trace, "--cpu", cpu, "--"}, cmd...)...), false)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.err != nil || r.status != 0 {
		row.skip = "recording in the good environment: " + describe(r)
		fmt.Fprintf(progress, "bench: %s: %s\n", label, row.skip)
		return row, nil
	}
	tool := func(verb string, extra ...string) []string {
		argv := append([]string{e.envbisect, verb, trace}, extra...)
		return inEnv("bad", append(append(argv, "--"), cmd...)...)
	}
	err := e.interleave(ctx, o, label, e.run, []timed{
		{name: "native", c: row.native, argv: o.pinned(inEnv("bad", cmd...)), want: 1},
		{name: "full replay", c: row.replay, argv: tool("replay", "--prefix", "all", "-q", "--cpu", cpu)},
		{name: "full replay, --sandbox=off", c: row.replayOff, argv: tool("replay", "--prefix", "all", "-q", "--cpu", cpu, "--sandbox=off")},
	}, progress)
	if err != nil {
		return nil, err
	}
	loc := e.run
	loc.timeout = min(o.timeout, s.LocateTimeout())
	if err := e.locateJobs(ctx, o, s, func(extra ...string) []string { return tool("locate", extra...) }, loc, nil, row, progress); err != nil {
		return nil, err
	}
	return row, nil
}
