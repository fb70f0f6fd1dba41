package main

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/bisect"
	"github.com/envbisect/envbisect/envdiff"
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/pkgdb"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/replay"
	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/serve"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
	"github.com/envbisect/envbisect/verdict"
)

type locateOptions struct {
	verdict verdictFlags
	repeat  int
	json    bool   // --json: --format json
	format  string // --format, resolved by runLocate (parseReportFormat)
	quiet   bool
	verbose bool   // -v: every step's divergences in the text report
	report  string // --report FILE: the JSON report, besides the text on stdout
	logs    runLogs
	// abortOnSignal: a run that exits 128 or more or is killed by a
	// signal stops the search, as in git bisect run.
	abortOnSignal bool
	force         bool // run a trace of another command line or directory
	cpu           string
	window        int
	where         containerFlags
	box           sandboxFlags
	jobs          int
	worker        bool // hidden: serve runs for a parallel locate (locate_workers.go)
	workerFD      int  // hidden: a worker's request pipe; its reply pipe is the next
	keep          keepFDsFlag
	kept          []int // --keep-fds, resolved
	// materialize: search the objects that differ here first, with
	// untraced runs that put the good ones in place (locate_objects.go).
	materialize bool
	// materializeAsked: --materialize was given (not its default), so
	// that a search that cannot put objects in place says why.
	materializeAsked bool
}

func newLocateCommand(s streams) *cobra.Command {
	var o locateOptions
	cmd := &cobra.Command{
		Use:   "locate TRACE [flags] -- CMD [ARGS...]",
		Short: "find what in this environment makes the command fail here",
		Long: `Find what in this environment makes CMD fail here, given TRACE: a recording
of CMD where it works (envbisect record).

Objects first. locate compares this environment with the recording: the
files, directories, links, packages, start items (environment variables,
the umask, resource limits), the host name, kernel tunables and addresses
held that differ here are the candidates. Each run puts some of the good
ones in place in a throwaway sandbox and runs CMD live, untraced; delta
debugging narrows them down to the fewest that make CMD pass (a package or
a directory of differing files first as one, then its parts), each
confirmed. The report names each cause, what differs, and a fix validated
by a run with exactly that change; one traced run then shows where the
program met each cause: the call, its result in the recording and here,
and why.

Recorded calls when objects cannot tell. When no run of the object search
makes CMD pass (the difference is in something it cannot put in place),
or what it ended at is not confirmed, locate searches the recorded calls
instead: each run replays the recorded results of the calls on some of
the resources that differ here (a file's open hands out the good file the
trace keeps) and executes the rest, and the search bisects for the
resources whose replay makes CMD pass. --materialize=false searches the
recorded calls only.

The state CMD starts with and no system call shows (environment
variables, the umask, resource limits) is compared with the recording's;
each item that differs is a candidate of both searches: a run that gives
it back starts CMD with the recorded value.

CMD gets descriptors 0, 1 and 2 only, like under docker exec, whatever
envbisect inherited; --keep-fds N passes envbisect's descriptor N too, at
the same number. A recording whose command started with other descriptors
is warned about; they are never candidates.

CMD runs on the CPUs as the recording placed it (--cpu auto): pinned to one
CPU when it was recorded so (record's default), on every CPU it inherits
when it was recorded with --cpu any; another --cpu is warned about. Where
envbisect pinned CMD, in the recording or in the runs, what CMD learns of
its CPUs (sched_getaffinity: nproc) is envbisect's doing, not this
environment's: it gets the recorded answer in every run and is never named
as the culprit. Only when neither was pinned is a difference in it the
environment's (fewer CPUs here, a cpuset, a taskset), located like any other.

Each search first checks both ends: with nothing given back CMD must fail
here, with everything given back it must pass. If either does not hold,
locate says so and names no cause. The run with nothing given back is made
twice: when those runs disagree, CMD is flaky or depends on state outside
the sandbox, and locate reports it as not repeatable instead of naming a
cause. The call-level search looks for at most 8 causes: past that it
stops and lists those it found (unconfirmed).

The report goes to stdout, alone: as text (the summary, the causes, the
diff and a compact table of the runs; -v adds every run's divergences
from the recording), or with --format json (--json) or --format markdown
(for a CI job's $GITHUB_STEP_SUMMARY). --report FILE writes the JSON
report to FILE as well, so one locate gives both. CMD's own output goes
to stderr, or with --logs DIR to one file per run in DIR
(run-003-search.log, run-012-confirm.log: the run's number and role;
each is made as its run starts, so keep DIR outside the trees CMD reads).
Progress goes to stderr (unless -q): on a terminal one line that each run
updates, elsewhere (a CI log) one line per finished run.

CMD must be the recorded command line: locate refuses (exit 2) a trace
recorded with other arguments, or in another working directory that the
runs cannot start in (without a sandbox), unless --force. A directory that the sandbox can replay is a candidate of the
search instead, and an executable whose path or content differs here is
said on stderr and searched like the rest of the environment.

` + sandboxHelp + `

` + verdictHelp + `
--repeat N runs every step N times and takes the majority, for flaky
commands. A run that exits with status 128 or more, or is killed by a
signal (a crash), fails; with --abort-on-signal it stops the search
instead, as 'git bisect run' does (exit 3, no report).

Exit status:
  0    located: every cause is named, each confirmed
  3    not located; the report says which and what to do: CMD passes here
       (no-failure), still fails with everything given back
       (replay-still-fails), gave different verdicts in runs that change
       nothing (not-repeatable), runs were skipped or disagreed
       (inconclusive), or what the search ended at was not confirmed
       (unconfirmed; also when it stopped at its limit of causes). Also,
       with --abort-on-signal, a run that exited 128 or more or was killed
       by a signal (no report)
  1    an error (unreadable trace, CMD not found, no ptrace permission,
       ...); interrupted by Ctrl-C (SIGINT) or SIGTERM: the run under way
       is stopped, nothing goes to stdout or --report; or the --report file
       could not be written at the end (the report is on stdout)
  2    bad usage: a bad flag or argument, a --report or --logs path that
       cannot take its file (checked before the trace is read), or a trace
       that records another command line or directory (see --force)`,
		Example: `  envbisect record -o good.envb -- ./app --config app.conf      # where it works
  envbisect locate good.envb -- ./app --config app.conf             # where it fails
  envbisect locate --materialize=false good.envb -- ./app --config app.conf
  envbisect locate web.envb --alive 5s -- lighttpd -D -f /etc/lighttpd/lighttpd.conf
  envbisect locate ftp.envb --alive 2s --check 'curl -sf ftp://127.0.0.1/' -- vsftpd
  envbisect locate ci.envb --json --timeout 60s -- make test
  envbisect locate ci.envb --format markdown -- make test >> "$GITHUB_STEP_SUMMARY"
  envbisect locate --container bad good.envb -- app --config /etc/app.conf`,
		Args: traceThenCommand("envbisect locate TRACE -- CMD"),
		RunE: func(c *cobra.Command, args []string) error {
			o.materializeAsked = c.Flags().Changed("materialize") && o.materialize
			return runLocate(c.Context(), s, o, args[0], args[1:])
		},
	}
	f := cmd.Flags()
	o.verdict.add(f)
	o.where.add(f)
	o.box.add(f, true, true)
	f.BoolVar(&o.materialize, "materialize", true, "search the objects of the environment that differ here (files, directories, links, "+
		"packages, start items, the host name) first, with untraced runs that put the good ones in place in the run's sandbox, and fall back to "+
		"call-level replay when that cannot make CMD pass; --materialize=false searches the recorded calls only")
	f.IntVar(&o.jobs, "jobs", 1, "make up to `N` runs at once, each on a CPU of its own while there are enough: a (N+1)-ary search in rounds, "+
		"the ends together (runs are isolated by the sandbox, but share the network: not for commands that listen on a fixed port); 1: one run at a time")
	f.BoolVar(&o.worker, "worker", false, "")
	f.MarkHidden("worker")
	f.IntVar(&o.workerFD, "worker-fd", workerRequestFD, "")
	f.MarkHidden("worker-fd")
	o.keep.add(f)
	f.IntVar(&o.repeat, "repeat", 1, "run each step `N` times and take the majority verdict (for flaky commands)")
	f.BoolVar(&o.json, "json", false, "print the report as one JSON object on stdout (the command's own output then goes to stderr); the same as --format json")
	f.StringVar(&o.format, "format", "", formatHelp)
	f.BoolVarP(&o.quiet, "quiet", "q", false, "no progress on stderr")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "list every run's divergences from the recording in the text report")
	f.StringVar(&o.report, "report", "", "write the report as JSON to `FILE` too (the text, or --format, still goes to stdout); its directory must exist, checked before the first run")
	f.StringVar(&o.logs.dir, "logs", "", "write CMD's output to one file per run in `DIR` (run-NNN-ROLE.log) instead of stderr")
	f.BoolVar(&o.abortOnSignal, "abort-on-signal", false, "stop the search when a run exits with status 128 or more or is killed by a signal, "+
		"as git bisect run does (default: such a run fails)")
	f.BoolVar(&o.force, "force", false, forceHelp)
	f.StringVar(&o.cpu, "cpu", "auto", cpuHelp)
	f.IntVar(&o.window, "window", replay.DefaultWindow, "how many calls a thread may run ahead of or behind the recording before it counts as diverged")
	return cmd
}

func runLocate(ctx context.Context, s streams, o locateOptions, path string, argv []string) error {
	format, err := parseReportFormat(o.format, o.json)
	if err != nil {
		return err
	}
	o.format = string(format)
	if err := o.verdict.validate(); err != nil {
		return err
	}
	if o.repeat < 1 {
		return usageError("--repeat %d: give 1 or more runs per step", o.repeat)
	}
	if o.window < 1 {
		return usageError("--window %d: give 1 or more calls", o.window)
	}
	if o.jobs < 1 || o.jobs > maxJobs {
		return usageError("--jobs %d: give 1 to %d runs at once", o.jobs, maxJobs)
	}
	if o.kept, err = o.keep.resolve(); err != nil {
		return err
	}
	// --report and --logs are checked before the trace is read and before
	// the first run: a path that cannot take them is found out at once,
	// not at the end of a search.
	if err := checkReportPath(o.report); err != nil {
		return err
	}
	if err := o.logs.prepare(); err != nil {
		return err
	}
	// Call-level runs hold the trace and its graph while they go on:
	// collect at 1.5 times what is live, not twice (the object search
	// holds little, and little is scanned).
	defer debug.SetGCPercent(debug.SetGCPercent(batchGCPercent))
	cpu, err := o.runCPU(s, path)
	if err != nil {
		return err
	}
	cpus := jobCPUs(cpu, o.jobs)
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The first Ctrl-C stops the run in progress and the search; a second
	// one during a run kills its processes at once.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	var runSigs runInterrupts
	var pool atomic.Pointer[workerPool]
	var once sync.Once
	go func() {
		for sig := range sigs {
			once.Do(cancel)
			runSigs.send(sig)
			pool.Load().signal(sig)
		}
	}()
	if o.worker {
		return runWorker(ctx, s, o, path, argv, cpu, &runSigs)
	}
	if o.jobs > 1 && (o.box.reset != "" || len(o.box.persist) > 0) {
		s.warn(fmt.Sprintf("--jobs %d: the runs under way at once share --persist paths, and --reset runs while other runs go on; "+
			"give --jobs 1 if that matters", o.jobs))
	}
	startPool := func() error {
		if o.jobs <= 1 {
			return nil
		}
		// The tracer makes one run per process at a time: parallel runs go
		// to worker processes, one per slot, each on its CPU. They start
		// as soon as call-level runs are sure, to read the trace while
		// this process does.
		p, err := startWorkers(cpus, o.kept)
		if err != nil {
			return withCode(exitError, err)
		}
		pool.Store(p)
		return nil
	}
	defer func() {
		if p := pool.Load(); p != nil {
			p.close()
		}
	}()
	prepare := prepareReplayStore
	var walked *envdiff.Inspector
	if o.materialize {
		// The object search replays no call: it reads the trace as a
		// stream (locate_lean.go); the whole trace, the dependency graph
		// and the workers of call-level runs wait for its fallback.
		prepare = prepareObjectSearch(&walked)
	} else if err := startPool(); err != nil {
		return err
	}

	t, rec, site, err := prepare(path, s, &o.where)
	if err != nil {
		return err
	}
	defer func() { rec.Close() }() // the Recording the search ends with: its trace file
	warnOtherFDs(s, t.Start, o.kept)
	site.cpu = cpu
	box, isolation, err := o.box.spec(s, site, false)
	if err != nil {
		return err
	}
	if e := t.End; e != nil && (e.Verdict != "" && e.Verdict != "pass" || e.Verdict == "" && e.ExitCode != 0) {
		fmt.Fprintf(s.err, "envbisect: WARNING: %s records a run that did not pass (exit status %d): locate needs a trace of a run that works\n",
			path, e.ExitCode)
		if p := trace.PlacementOf(t.Start); p.Known && p.Pinned {
			fmt.Fprintf(s.err, "envbisect: WARNING: that run was pinned to CPU %s (record --cpu auto), so it saw one CPU; "+
				"if the command needs more, record it again with --cpu any\n", p.CPUs)
		}
	}
	if err := checkSameCommand(s, commandCheck{path: path, t: t, rec: rec, argv: argv, site: site, sandboxed: box != nil}, o.force, o.quiet); err != nil {
		return err
	}

	store := contentStore(t)
	defer store.Close()
	start, startList, notApplied := runStartItems(rec, site, box != nil, o.box.mode == "off", o.where.container != "")
	noteUnapplied(s, notApplied)
	var objRep *bisect.ObjectReport
	if o.materialize {
		search := &objectSearch{o: o, s: s, t: t, rec: rec, site: site, box: box, start: start, items: startList, argv: argv, path: path, sigs: &runSigs,
			walked: walked, report: reportOptions(o, t, path, site, argv, startList, notApplied, isolation), warn: warnOnce(s.warn)}
		res, diff, err := search.run(ctx)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return withCode(exitError, errors.New("interrupted: no culprit"))
			}
			if errors.Is(err, errAborted) {
				return withCode(exitNotLocated, err)
			}
			return runError(err)
		}
		if res != nil && !res.Fallback() {
			search.complete(res, diff)
			rep := bisect.MaterializedReport(res, argv)
			if res.Status == envobj.Located {
				if rep, err = search.describe(ctx, res, store); err != nil {
					if errors.Is(err, context.Canceled) {
						return withCode(exitError, errors.New("interrupted: no culprit"))
					}
					return runError(err)
				}
			}
			rep.Verbose = o.verbose
			return deliverReport(s, format, o.report, rep)
		}
		if res != nil {
			objRep = res
			fmt.Fprintf(s.err, "envbisect: the object search named nothing (%s): searching the recorded calls\n", res.Message)
		}
		if t, rec, err = reloadStoreRecording(path); err != nil {
			return err
		}
		if err := startPool(); err != nil {
			return err
		}
	}
	runner := o.runner(s, rec, store, site, box, start, argv, cpus, &runSigs)
	if p := pool.Load(); p != nil {
		if err := p.setup(workerSetup{Join: site.join, Env: site.env, Dir: site.dir, Sandbox: box, Start: start}); err != nil {
			return withCode(exitError, err)
		}
		runner = p
	}
	runner = sayWarnings(runner, warnOnce(s.warn))
	if o.abortOnSignal {
		runner = abortOnSignal(runner)
	}
	pp := newProgressPrinter(s.err, o.quiet, o.logs.dir == "") // without --logs the command writes to stderr too
	progress := pp.progress()
	opts := reportOptions(o, t, path, site, argv, startList, notApplied, isolation)
	opts.Progress, opts.Jobs = progress, o.jobs
	opts.Events, opts.EachEvent = nil, rec.EachEvent // the calls stay in the trace file
	rep, err := bisect.Locate(ctx, rec.Graph, runner, opts)
	pp.finish()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return withCode(exitError, errors.New("interrupted: no culprit"))
		}
		if errors.Is(err, errAborted) {
			return withCode(exitNotLocated, err)
		}
		return runError(err)
	}
	if tab, err := systable.New(t.Header.Arch); err == nil {
		rep.Unseen = unseenIn(tab, rec) // io_uring, nested ptrace
	}
	rep.Verbose = o.verbose
	if objRep != nil {
		bisect.AfterObjects(rep, objRep)
	}
	return deliverReport(s, format, o.report, rep)
}

// unseenIn lists the uses of what envbisect cannot see (io_uring, nested
// ptrace) in rec's events, in one pass over them.
func unseenIn(tab *systable.Table, rec *replay.Recording) []render.UnseenUse {
	f := render.NewUnseenFinder(tab)
	rec.EachEvent(func(ev *trace.Event) error { f.Event(*ev); return nil })
	return f.Uses
}

// reportOptions are the options of locate's report that do not depend
// on how the runs are made: what the call-level search (bisect.Locate)
// and the description of the object search's causes
// (bisect.DescribeObjects) both read.
func reportOptions(o locateOptions, t *tracefile.Trace, path string, site runSite, argv []string, startList []bisect.StartItem,
	notApplied []render.StartItem, isolation string) bisect.Options {
	return bisect.Options{
		Command: argv,
		Start:   startList,
		Repeat:  o.repeat, Unapplied: notApplied, CheckRepeatable: true, Isolation: isolation,
		Header: &t.Header, Events: t.Events, Files: t.File, TracePath: path, Lost: lostOf(t),
		RunFlags: append(append(append(o.where.args(), o.box.args()...), o.verdict.args()...), keepFDsArgs(o.kept)...), RanAs: o.where.describe(),
		Recorded: t.Start, Here: launch.CommandCreds(site.join), AddressHolder: addressHolderIn(site.join),
		PackageOwner: pkgdb.Open(site.join.Root()).Owner, StatHere: statHereIn(site.join),
		ContentHere: newContentHere(site.join.Root()).hash, ResolveHere: resolveHereIn(site.join),
	}
}

// runCPU resolves --cpu for locate's runs (the first slot's CPU; -1:
// none): auto follows the trace at path's recording, and a choice that
// differs from it is warned about once, here and not in the workers,
// which get the parent's choice as a number or any.
func (o locateOptions) runCPU(s streams, path string) (int, error) {
	if o.worker {
		return parseCPU(o.cpu)
	}
	cpu, warning, err := runCPU(o.cpu, recordedPlacement(path))
	if warning != "" {
		s.warn(warning)
	}
	return cpu, err
}

// runWorker is `locate --worker`: it reads the trace, takes where to run
// and the sandbox from the parent's setup, and serves the parent's runs
// (locate_workers.go).
func runWorker(ctx context.Context, s streams, o locateOptions, path string, argv []string, cpu int, sigs *runInterrupts) error {
	conn := openWorkerConn(o.workerFD)
	defer conn.close()
	t, rec, loadErr := loadStoreRecording(path, s)
	if loadErr == nil {
		defer rec.Close()
	}
	ws, ok, err := conn.setup()
	if err != nil || !ok {
		return err // no setup: the parent stopped before the search and says why
	}
	if loadErr != nil {
		return loadErr
	}
	site := ws.site(cpu)
	start := ws.Start
	store := contentStore(t) // a worker's own: memfds do not cross processes
	defer store.Close()
	return conn.serve(ctx, o.runner(s, rec, store, site, ws.Sandbox, start, argv, []int{cpu}, sigs))
}

// runner is what makes each of locate's runs: CMD, after --reset, with
// the request's prefix and start items replayed, in a sandbox made from
// box (nil: on the real file system), pinned to the request's slot's CPU,
// with the trace's file contents served from store (nil: none).
func (o locateOptions) runner(s streams, rec *replay.Recording, store *serve.Store, site runSite, box *sandbox.Spec, start []align.StartDiff,
	argv []string, cpus []int, sigs *runInterrupts) bisect.Runner {
	return bisect.RunnerFunc(func(ctx context.Context, r bisect.Request) (bisect.Outcome, error) {
		if err := ctx.Err(); err != nil {
			return bisect.Outcome{}, err
		}
		if err := o.box.runReset(ctx, s); err != nil {
			return bisect.Outcome{}, err
		}
		cpu := cpus[r.Job%len(cpus)]
		plan := rec.Graph.Closure(rec.WithPlacement(r.Asks(rec.Graph), cpu >= 0))
		output, closeLog, err := o.logs.open(r)
		if err != nil {
			return bisect.Outcome{}, err
		}
		defer closeLog()
		interrupt, done := sigs.add()
		defer done()
		var warned runWarnings
		res, err := rec.Run(ctx, replay.Options{
			Sandbox: box,
			Argv:    argv, Plan: plan, Start: bisect.StartOf(r, start), Judge: o.verdict.spec, Window: o.window, CPU: cpu,
			Join: site.join, Env: site.env, Dir: site.dir, Serve: store, KeepFDs: o.kept,
			Stdout: output, Stderr: output, // never stdout: it holds the report alone
			Interrupt: interrupt,
			Warn:      warned.add,
		})
		if ee, refused := launch.ExecRefused(err); refused && ctx.Err() == nil {
			// The environment here does not let the command start: that
			// run fails, and a replayed start item may let it start.
			return bisect.Outcome{Verdict: verdict.Fail, Detail: "did not start: " + ee.Msg, ExecCaps: execCaps(ee, argv, site.join)}, nil
		}
		if err != nil {
			if ctx.Err() != nil {
				return bisect.Outcome{}, ctx.Err()
			}
			return bisect.Outcome{}, err
		}
		out := bisect.Outcome{Verdict: res.Verdict, Detail: res.Detail, Seconds: res.Seconds,
			Diverged: len(res.Diverged()) > 0, Taint: res.Taint(), Abortive: res.Abortive, Warnings: warned.list()}
		if res.Verdict == verdict.Fail {
			// The search reads the live calls of failing runs alone (it
			// keeps none of the others): a passing run that executed a
			// long loop makes no map of a million entries.
			out.Live = res.Live.Map()
		}
		for _, d := range res.Divergences {
			out.Divergences = append(out.Divergences, bisect.Divergence{Kind: d.Kind, Proc: d.Proc, Thread: d.Thread,
				RecordedSeq: d.AtSeq, Expected: d.Expected, LiveCall: d.Got, Text: d.String()})
		}
		return out, nil
	})
}

// startItems turns the start events that differ into the search's
// candidates.
func startItems(diffs []align.StartDiff) []bisect.StartItem {
	out := make([]bisect.StartItem, len(diffs))
	for i, d := range diffs {
		out[i] = bisect.StartItem{Kind: string(d.Kind), Name: d.Name}
		if d.A != nil {
			v := d.A.Value
			out[i].Good = &v
		}
		if d.B != nil {
			v := d.B.Value
			out[i].Here = &v
		}
		out[i].Text = out[i].Plain()
	}
	return out
}

// statHereIn stats a path in the root the runs saw: join's, or
// envbisect's own.
func statHereIn(join *trace.Join) func(string) (mode, uid, gid uint32, err error) {
	root := join.Root()
	return func(p string) (uint32, uint32, uint32, error) {
		st, err := launch.StatInRoot(root, p)
		if err != nil {
			return 0, 0, 0, err
		}
		return st.Mode, st.Uid, st.Gid, nil
	}
}

// resolveHereIn follows a path's symbolic links in the environment the
// runs saw: join's root, or envbisect's own.
func resolveHereIn(join *trace.Join) func(string) (string, error) {
	root := join.Root()
	return func(p string) (string, error) { return launch.ResolveInRoot(root, p) }
}

// addressHolderIn finds the process that holds an address in the network
// namespace the runs were made in: join's, or envbisect's own.
func addressHolderIn(join *trace.Join) func(netip.AddrPort) (int, string, error) {
	nsPID := 0
	if join != nil {
		nsPID = join.PID
	}
	return func(ap netip.AddrPort) (int, string, error) { return launch.AddressHolder(ap, nsPID) }
}

// execCaps are, for a command whose exec the kernel refused for its
// file's capabilities (launch.ExecError.FileCapsRefused), the
// capabilities that file carries (launch.FileCaps), read where the runs
// see it (join's root); nil otherwise.
func execCaps(ee *launch.ExecError, argv []string, join *trace.Join) []int {
	if !ee.FileCapsRefused() || len(argv) == 0 {
		return nil
	}
	path, err := launch.LookPath(argv[0], join)
	if err != nil {
		return nil
	}
	return launch.FileCaps(filepath.Join(join.Root(), path))
}
