package main

import (
	"context"
	"fmt"

	"github.com/envbisect/envbisect/bisect"
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/replay"
	"github.com/envbisect/envbisect/serve"
	"github.com/envbisect/envbisect/trace"
)

// The object search finds its causes with untraced runs. What the
// program met of each cause here, the call and its result, takes one
// traced run with nothing replayed (an observation run): the causes'
// first calls run live and the report describes them as the call-level
// search does (bisect.DescribeObjects). The run ends once those calls
// (and the next calls on their objects, bisect.ObservedCalls) have run,
// so a command that computes for minutes after reading its
// configuration is traced only that far (replay's Options.ObserveOnly).

// describe returns locate's report of res, a located object search: each
// cause at the first call that met it, observed in a traced run here. When
// that run cannot be made, the report names the objects alone and says
// why on stderr: the causes stand, found by the object search.
func (m *objectSearch) describe(ctx context.Context, res *bisect.ObjectReport, store *serve.Store) (*bisect.Report, error) {
	var seqs []uint64
	for i := range res.Causes {
		if q := res.Causes[i].MetAt(); q != 0 {
			seqs = append(seqs, q)
		}
	}
	if len(seqs) == 0 {
		// Start items alone: nothing to observe. Only a PATH that differs
		// needs the recorded calls: they name the programs it hides or
		// reveals.
		if !hasPathCause(res) {
			return bisect.DescribeObjects(nil, res, nil, m.report), nil
		}
		rec, err := fullRecording(m.path, m.t)
		if err != nil {
			fmt.Fprintf(m.s.err, "envbisect: the recording's calls could not be read (%v): the report does not name "+
				"the programs PATH finds\n", err)
			return bisect.DescribeObjects(nil, res, nil, m.report), nil
		}
		m.rec = rec
		return bisect.DescribeObjects(rec.Graph, res, nil, m.report), nil
	}
	if m.walked != nil && m.walked.Calls() > describeMaxCalls {
		fmt.Fprintf(m.s.err, "envbisect: the trace holds %d calls: the report names the objects and the recorded call that met "+
			"each, without the traced run here that would show its result here (that needs its dependency graph, a few hundred bytes a call; "+
			"the search itself does not)\n", m.walked.Calls())
		return bisect.MaterializedReport(res, m.argv), nil
	}
	t, rec, err := reloadStoreRecording(m.path)
	if err != nil {
		return nil, err
	}
	defer rec.Close()
	m.rec = rec
	opts := m.report
	opts.Header, opts.Files = &t.Header, t.File
	opts.Events, opts.EachEvent = nil, rec.EachEvent // the calls stay in the trace file
	run := res.Runs + res.ConfirmRuns + 1
	live, err := m.observe(ctx, bisect.ObservedCalls(rec.Graph, res), store, run, res)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		fmt.Fprintf(m.s.err, "envbisect: the traced run that shows each cause's first call here failed (%v): "+
			"the report names the objects only\n", err)
		return bisect.MaterializedReport(res, m.argv), nil
	}
	return bisect.DescribeObjects(rec.Graph, res, live, opts), nil
}

// describeMaxCalls bounds the traces whose located causes describe
// builds the call-level view of: the dependency graph and the
// recording's keys, a few hundred bytes a call (the calls stay in the
// trace file: reloadStoreRecording), which the object search itself
// never holds (it streams the trace). Past it the report names the
// objects and their first recorded calls only.
const describeMaxCalls = 2_000_000

// observe makes the observation run, locate's run number run: the command
// traced with nothing replayed and nothing put in place, ended once the
// calls seqs ran.
//
// The run is the last of res's steps (role "observe").
func (m *objectSearch) observe(ctx context.Context, seqs []uint64, store *serve.Store, run int, res *bisect.ObjectReport) (map[uint64]*trace.Call, error) {
	if err := m.o.box.runReset(ctx, m.s); err != nil {
		return nil, err
	}
	rec := m.rec
	plan := rec.Graph.Closure(rec.WithPlacement(func(uint64) bool { return false }, m.site.cpu >= 0))
	output, closeLog, err := m.o.logs.open(bisect.Request{Run: run, Role: "observe"})
	if err != nil {
		return nil, err
	}
	defer closeLog()
	interrupt, done := m.sigs.add()
	defer done()
	out, err := rec.Run(ctx, replay.Options{
		Sandbox: m.box, Argv: m.argv, Plan: plan, Judge: m.o.verdict.spec, Window: m.o.window, CPU: m.site.cpu,
		Join: m.site.join, Env: m.site.env, Dir: m.site.dir, Serve: store, KeepFDs: m.o.kept,
		Stdout: output, Stderr: output, Interrupt: interrupt, ObserveOnly: seqs,
	})
	if ee, refused := launch.ExecRefused(err); refused {
		return nil, ee
	}
	if err != nil {
		return nil, err
	}
	detail := "traced, nothing in place: ended once the causes' first calls ran"
	if !out.Observed {
		detail = "traced, nothing in place: " + out.Detail
	}
	step := 1
	if n := len(res.Steps); n > 0 {
		step = res.Steps[n-1].Step + 1
	}
	if !m.o.quiet {
		fmt.Fprintf(m.s.err, "envbisect: object run %d: nothing in place, traced, to show where the command met each cause: %s (%s)\n",
			run, out.Verdict, detail)
	}
	res.Steps = append(res.Steps, envobj.ResultStep{Step: step, Role: render.RoleObserve, InPlace: envobj.InPlaceNothing,
		Verdict: out.Verdict.String(), Detail: detail, Seconds: out.Seconds})
	return out.Live.Map(), nil
}

// hasPathCause reports whether a cause of res is the start item env
// PATH.
func hasPathCause(res *bisect.ObjectReport) bool {
	for _, c := range res.Causes {
		if c.Start != nil && bisect.IsPath(c.Start.Kind, c.Start.Name) {
			return true
		}
	}
	return false
}
