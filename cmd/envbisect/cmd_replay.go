package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/ptrace"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/replay"
	"github.com/envbisect/envbisect/trace"
)

type replayOptions struct {
	prefix  string
	json    bool
	verdict verdictFlags
	cpu     string
	quiet   bool
	where   containerFlags
	box     sandboxFlags
	keep    keepFDsFlag
	force   bool // run a trace of another command line or directory
}

func newReplayCommand(s streams) *cobra.Command {
	var o replayOptions
	cmd := &cobra.Command{
		Use:   "replay TRACE --prefix K|all [flags] -- CMD [ARGS...]",
		Short: "make one semi-replay run: the first K recorded calls replayed, the rest executed",
		Long: `Run CMD here with the recorded calls up to call K of TRACE replayed (their
recorded results written into CMD, the real calls skipped) and every later
call executed, as one step of 'envbisect locate' does, and print the
verdict, every live call with the recorded call it matched and what the run
did with it (replay, execute, execute+overwrite; extra, diverged or
unmatched when it matched none), and where the run diverged from the
recording. --prefix all replays every call that can be; --prefix 0 none.
Unless K is 0, CMD also starts with the recorded values of the environment
variables, umask and limits that differ here (locate's start items).

--cpu auto places CMD on the CPUs as the recording did (see 'envbisect
locate --help'); where envbisect pinned CMD on either side, its calls that
ask for its CPUs (sched_getaffinity) are replayed whatever K is.

CMD gets descriptors 0, 1 and 2 only, like under docker exec, unless
--keep-fds passes more; a recording whose command had others is warned
about.

Calls that always execute (memory, processes, signals), calls between the
traced processes, and the command's input are never replayed; a replayed
call that a later executed call depends on executes and then has its
results overwritten. See 'envbisect deps TRACE' for the dependencies.

` + sandboxHelp + `

` + verdictHelp + `

Exit status:
  0    the run passed
  3    the run failed or was skipped
  1    an error (unreadable trace, no ptrace permission, ...)
  2    bad usage, or the trace records another command line, or another
       directory that the run cannot start in (see --force)`,
		Example: `  envbisect replay good.envb --prefix all -- ./app --config app.conf
  envbisect replay good.envb --prefix 42 --json -- make test`,
		Args: traceThenCommand("envbisect replay TRACE --prefix K -- CMD"),
		RunE: func(c *cobra.Command, args []string) error {
			return runReplay(c.Context(), s, o, args[0], args[1:])
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.prefix, "prefix", "", "replay the recorded calls up to call `K` (a seq from 'envbisect show'), all, or 0 for none")
	f.BoolVar(&o.json, "json", false, "print one JSON object on stdout, listing every live call (the command's own output then goes to stderr)")
	f.StringVar(&o.cpu, "cpu", "auto", cpuHelp)
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print only the verdict line (and no call list with --json)")
	f.BoolVar(&o.force, "force", false, forceHelp)
	o.verdict.add(f)
	o.where.add(f)
	o.box.add(f, true, true)
	o.keep.add(f)
	return cmd
}

// parsePrefix reads --prefix: a call seq, "all" or "none".
func parsePrefix(s string) (uint64, error) {
	switch s {
	case "all":
		return ^uint64(0), nil
	case "none":
		return 0, nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, usageError("--prefix %q: give a call number (seq), all, or none", s)
	}
	return n, nil
}

func runReplay(ctx context.Context, s streams, o replayOptions, path string, argv []string) error {
	if o.prefix == "" {
		return usageError("--prefix is required: the last recorded call to replay (a seq from 'envbisect show'), all, or none")
	}
	prefix, err := parsePrefix(o.prefix)
	if err != nil {
		return err
	}
	// The trace, its graph and the run's calls are held until the run
	// ends: collect at 1.5 times what is live, not twice.
	defer debug.SetGCPercent(debug.SetGCPercent(batchGCPercent))
	if err := o.verdict.validate(); err != nil {
		return err
	}
	if _, err := parseCPU(o.cpu); err != nil {
		return err
	}
	keep, err := o.keep.resolve()
	if err != nil {
		return err
	}
	t, rec, site, err := prepareReplayStore(path, s, &o.where)
	if err != nil {
		return err
	}
	defer rec.Close()
	warnOtherFDs(s, t.Start, keep)
	cpu, warning, err := runCPU(o.cpu, trace.PlacementOf(t.Start))
	if err != nil {
		return err
	}
	if warning != "" {
		s.warn(warning)
	}
	site.cpu = cpu
	store := contentStore(t)
	defer store.Close()
	box, _, err := o.box.spec(s, site, false)
	if err != nil {
		return err
	}
	if err := checkSameCommand(s, commandCheck{path: path, t: t, rec: rec, argv: argv, site: site, sandboxed: box != nil}, o.force, o.quiet); err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := o.box.runReset(ctx, s); err != nil {
		return withCode(exitError, err)
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	plan := rec.Graph.Closure(rec.WithPlacement(func(seq uint64) bool { return seq <= prefix }, site.cpu >= 0))
	var start []align.StartDiff
	if prefix > 0 {
		var notApplied []render.StartItem
		start, _, notApplied = runStartItems(rec, site, box != nil, o.box.mode == "off", o.where.container != "")
		if !o.quiet {
			noteUnapplied(s, notApplied)
		}
	}
	res, err := rec.Run(ctx, replay.Options{
		Argv: argv, Plan: plan, Start: start, Stdout: cmdStdout(o.json), Judge: o.verdict.spec, ListCalls: !o.quiet, CPU: site.cpu,
		Join: site.join, Env: site.env, Dir: site.dir, Sandbox: box, Serve: store, KeepFDs: keep,
		Interrupt: sigs,
		Warn:      s.warn,
		NoLive:    true, // replay prints the live calls' actions, never their results
	})
	if err := runError(err); err != nil {
		return err
	}
	if o.json {
		out := struct {
			Prefix uint64 `json:"prefix"`
			All    bool   `json:"all"`
			*replay.Result
		}{prefix, prefix == ^uint64(0), res}
		if out.All {
			out.Prefix = uint64(rec.Calls())
		}
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return withCode(exitError, err)
		}
	} else {
		writeReplayText(s, res, prefix, rec.Calls(), o.quiet)
	}
	if res.Verdict.String() != "pass" {
		return withCode(exitNotLocated, nil)
	}
	return nil
}

// runError turns an error of a traced run into the CLI's.
func runError(err error) error {
	var ee *launch.ExecError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee):
		return withCode(exitError, ee)
	case errors.Is(err, ptrace.ErrPtraceDenied):
		return withCode(exitError, err)
	}
	return withCode(exitError, fmt.Errorf("run: %w", err))
}

func writeReplayText(s streams, res *replay.Result, prefix uint64, calls int, quiet bool) {
	what := fmt.Sprintf("calls up to %d of %d replayed", prefix, calls)
	switch prefix {
	case 0:
		what = "no call replayed"
	case ^uint64(0):
		what = fmt.Sprintf("every replayable call of %d replayed", calls)
	}
	fmt.Fprintf(s.out, "%s: %s (%s, %.2f s)\n", res.Verdict, res.Detail, what, res.Seconds)
	if quiet {
		return
	}
	fmt.Fprintf(s.out, "live calls: %d replayed, %d executed then overwritten, %d executed, %d extra; %d recorded calls passed over\n",
		res.Replayed, res.Overwritten, res.Executed, res.Extra, res.Unmatched)
	if len(res.Calls) > 0 {
		fmt.Fprintf(s.out, "\n%8s  %8s  %-9s  %-17s  %s\n", "live", "recorded", "proc", "action", "call")
		for _, c := range res.Calls {
			rec := "-"
			if c.Seq != 0 {
				rec = strconv.FormatUint(c.Seq, 10)
			}
			who := fmt.Sprintf("[%d:%d]", c.Proc, c.Thread)
			why := ""
			if c.Why != "" {
				why = "  (" + c.Why + ")"
			}
			fmt.Fprintf(s.out, "%8d  %8s  %-9s  %-17s  %s %s%s\n", c.LiveSeq, rec, who, c.Action, c.Syscall, render.Visible(c.Path), render.Visible(why))
		}
		fmt.Fprintln(s.out)
	}
	for _, r := range res.AddrRedirects {
		fmt.Fprintf(s.out, "redirected: bind %s (recorded call %d, %s here) bound %s instead; %d connects and sends followed\n",
			r.Recorded, r.Seq, r.Errno, r.Live, r.Redirected)
	}
	for _, d := range res.Divergences {
		fmt.Fprintf(s.out, "divergence: %s\n", d)
	}
	for _, r := range res.Redirects {
		fmt.Fprintf(s.out, "redirected: %s %s failed here (%s); made as %s in the run's scratch area, where later calls on it went\n",
			r.Syscall, r.Path, r.Errno, r.Scratch)
	}
	if res.CheckOutput != "" {
		fmt.Fprintf(s.out, "check output:\n%s", res.CheckOutput)
	}
}
