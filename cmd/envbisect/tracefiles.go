package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/envbisect/envbisect/depgraph"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/replay"
	"github.com/envbisect/envbisect/systable"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
)

// readTraceCut reads a whole trace, and says whether it is cut short; a
// trace cut short is used with a warning. Errors name the file.
func readTraceCut(path string, s streams) (*tracefile.Trace, bool, error) {
	return readTraceWith(path, s, tracefile.ReadOptions{})
}

// readTraceWith is readTraceCut reading as o says.
func readTraceWith(path string, s streams, o tracefile.ReadOptions) (*tracefile.Trace, bool, error) {
	t, err := o.ReadFile(path)
	switch {
	case err == nil:
		return t, false, nil
	case errors.Is(err, tracefile.ErrTruncated) && t != nil:
		fmt.Fprintf(s.err, "warning: %s: %s\n", path, strings.TrimPrefix(err.Error(), "read trace "+path+": "))
		return t, true, nil
	}
	return nil, false, nameFile(path, err)
}

// runSite is where and how the runs of replay and locate happen: the
// CPU to pin to, and the container (nil: here) with the environment and
// working directory the command gets there.
type runSite struct {
	cpu  int
	join *trace.Join
	env  []string
	dir  string
}

// prepareReplayStore is prepareReplay for a trace whose calls stay in
// its file (tracefile.Store): the Recording and its graph read them
// from there as runs need them, which holds a few hundred bytes a call
// less than reading it whole. The caller closes the Recording. replay
// and locate's call-level runs read it so: a run's live calls hold no
// recorded call (replay.LiveCalls: a bit a call answered as recorded),
// so nothing keeps the decoded calls (docs/performance.md).
func prepareReplayStore(path string, s streams, where *containerFlags) (*tracefile.Trace, *replay.Recording, runSite, error) {
	return prepareSite(path, s, where, loadStoreRecording)
}

// loadStoreRecording is loadRecording over a tracefile.Store.
func loadStoreRecording(path string, s streams) (*tracefile.Trace, *replay.Recording, error) {
	st, err := tracefile.OpenStore(path)
	switch {
	case err == nil:
	case errors.Is(err, tracefile.ErrTruncated) && st != nil:
		fmt.Fprintf(s.err, "warning: %s: %s\n", path, strings.TrimPrefix(err.Error(), "read trace "+path+": "))
	default:
		return nil, nil, withCode(exitError, nameFile(path, err))
	}
	t := st.Trace
	if _, err := startRecording(path, s, t); err != nil {
		st.Close()
		return nil, nil, err
	}
	rec, err := storeRecording(path, st)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return t, rec, nil
}

// reloadStoreRecording opens the trace at path again as a Store and
// prepares it for call-level runs, when the object search falls back to
// them or describes its causes: what opening it the first time warned
// about is not said again. The caller closes the Recording.
func reloadStoreRecording(path string) (*tracefile.Trace, *replay.Recording, error) {
	st, err := tracefile.OpenStore(path)
	if err != nil && !(errors.Is(err, tracefile.ErrTruncated) && st != nil) {
		return nil, nil, withCode(exitError, nameFile(path, err))
	}
	rec, err := storeRecording(path, st)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return st.Trace, rec, nil
}

// storeRecording builds the dependency graph of the trace st keeps in
// its file, by two passes over it, and the recording call-level runs
// need: neither holds the calls.
func storeRecording(path string, st *tracefile.Store) (*replay.Recording, error) {
	t := st.Trace
	fail := func(err error) (*replay.Recording, error) {
		return nil, withCode(exitError, fmt.Errorf("trace %s: %w", path, err))
	}
	if err := replay.CheckArch(&t.Header); err != nil {
		return fail(err)
	}
	tab, err := systable.New(t.Header.Arch)
	if err != nil {
		return fail(err)
	}
	o := depgraph.BuildOptions{Source: st}
	if len(t.Files) > 0 {
		o.Files = t
	}
	g, err := depgraph.BuildPasses(tab, &t.Header, st.Each, o)
	if err != nil {
		return fail(fmt.Errorf("dependency graph: %w", err))
	}
	rec, err := replay.PrepareStore(st, g)
	if err != nil {
		return fail(err)
	}
	return rec, nil
}

// prepareSite resolves where the runs happen and loads the trace at path
// with load.
func prepareSite(path string, s streams, where *containerFlags,
	load func(string, streams) (*tracefile.Trace, *replay.Recording, error)) (*tracefile.Trace, *replay.Recording, runSite, error) {
	var site runSite
	var err error
	if site.join, site.env, site.dir, err = where.resolve(); err != nil {
		return nil, nil, site, err
	}
	t, rec, err := load(path, s)
	if err != nil {
		return nil, nil, site, err
	}
	where.warnWhere(s, path, &t.Header)
	return t, rec, site, nil
}

// startRecording checks that trace t, read from path, has a command to
// re-run, warns when its recording lost calls, and prepares it without
// its dependency graph.
func startRecording(path string, s streams, t *tracefile.Trace) (*replay.Recording, error) {
	if t.Header.Observed {
		return nil, withCode(exitError, fmt.Errorf("%s is an observation trace (record --attach): envbisect started nothing, "+
			"so there is no command to re-run; record the command itself (envbisect record -o FILE -- CMD) and use that trace", path))
	}
	if l := lostOf(t); l.Any() {
		s.warn(fmt.Sprintf("%s is incomplete (%s): those calls execute instead of being replayed; "+
			"record again with a larger --ring-size", path, render.LossesString(l)))
	}
	rec, err := replay.PrepareStart(t)
	if err != nil {
		return nil, withCode(exitError, fmt.Errorf("trace %s: %w", path, err))
	}
	return rec, nil
}

// fullRecording builds the dependency graph of t, read from path, and
// the recording call-level runs need.
func fullRecording(path string, t *tracefile.Trace) (*replay.Recording, error) {
	g, err := dependencyGraph(t)
	if err != nil {
		return nil, withCode(exitError, fmt.Errorf("trace %s: %w", path, err))
	}
	rec, err := replay.Prepare(t, g)
	if err != nil {
		return nil, withCode(exitError, fmt.Errorf("trace %s: %w", path, err))
	}
	return rec, nil
}

// traceThenCommand checks the arguments of a command that takes a trace,
// then the command to run after --.
func traceThenCommand(usage string) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if c.ArgsLenAtDash() != 1 || len(args) < 2 {
			return usageError("give the trace, then the command after --: %s", usage)
		}
		return nil
	}
}

// warn prints a warning on stderr; the tracer's and record's Warn.
func (s streams) warn(msg string) { fmt.Fprintf(s.err, "envbisect: warning: %s\n", msg) }

// lostOf returns what the recording of t lost, or nil.
func lostOf(t *tracefile.Trace) *trace.Losses {
	if t.End == nil {
		return nil
	}
	return t.End.Lost
}

// dependencyGraph builds the dependency graph of a trace to replay, as a
// step of its own: replay and the search share it.
func dependencyGraph(t *tracefile.Trace) (*depgraph.Graph, error) {
	if err := replay.CheckArch(&t.Header); err != nil {
		return nil, err
	}
	tab, err := systable.New(t.Header.Arch)
	if err != nil {
		return nil, err
	}
	var files depgraph.Files // a trace without file objects (version 1, eBPF) serves nothing
	if len(t.Files) > 0 {
		files = t
	}
	g, err := depgraph.BuildServed(tab, &t.Header, t.Events, files)
	if err != nil {
		return nil, fmt.Errorf("dependency graph: %w", err)
	}
	return g, nil
}
