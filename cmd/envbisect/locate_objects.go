package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/envbisect/envbisect/align"
	"github.com/envbisect/envbisect/bisect"
	"github.com/envbisect/envbisect/envdiff"
	"github.com/envbisect/envbisect/envobj"
	"github.com/envbisect/envbisect/launch"
	"github.com/envbisect/envbisect/render"
	"github.com/envbisect/envbisect/replay"
	"github.com/envbisect/envbisect/sandbox"
	"github.com/envbisect/envbisect/trace"
	"github.com/envbisect/envbisect/tracefile"
	"github.com/envbisect/envbisect/verdict"
)

// The object search of locate --materialize (issue 27): before any
// call-level run, this environment is inspected against the recording
// (envdiff: every path the recording observed, stat'ed, read, listed
// and resolved here), and the objects that differ, with the start items,
// are searched by runs that put the good objects in place in the run's
// sandbox and run the command live, without the tracer
// (replay.Execute). When that search cannot make the command pass, or
// names nothing, locate falls back to the call-level search and says so.

// objectSearch is what the object search needs of locate's setup.
type objectSearch struct {
	o     locateOptions
	s     streams
	t     *tracefile.Trace
	rec   *replay.Recording
	site  runSite
	box   *sandbox.Spec
	start []align.StartDiff  // the start items a run can apply
	items []render.StartItem // the same, as the report's items
	argv  []string
	path  string // the trace
	sigs  *runInterrupts
	// report is what the call-level report of a cause is made with
	// (describe).
	report bisect.Options
	// warn says a run's warning on stderr, each once (warnOnce).
	warn func(string)
	// walked is the inspection's walk of the trace's calls, made as
	// prepareObjectSearch read it (t then holds few of its events); nil:
	// inspect t's events.
	walked *envdiff.Inspector
	// peers are the peers the good run talked to, for the runs' stand-in
	// networks (addPeers); nil when runs put none in place.
	peers *peerSet
	// runBase is how many runs an earlier phase of the search made
	// (locateInPhases): a later phase's runs are numbered after them.
	runBase int
}

// run makes the object search; its result is nil (with a note on
// stderr) when it cannot be made here: no sandbox, or nothing in the
// trace to inspect.
func (m *objectSearch) run(ctx context.Context) (*bisect.ObjectReport, *envdiff.Diff, error) {
	s := m.s
	if m.box == nil {
		if m.o.materializeAsked {
			fmt.Fprintf(s.err, "envbisect: --materialize needs the runs' sandbox (it puts the good objects in place there): "+
				"searching recorded calls only\n")
		}
		return nil, nil, nil
	}
	ignore := []string{}
	if abs, err := filepath.Abs(m.path); err == nil {
		ignore = append(ignore, abs)
	}
	if m.o.logs.dir != "" {
		if abs, err := filepath.Abs(m.o.logs.dir); err == nil {
			ignore = append(ignore, abs)
		}
	}
	// What --persist shares is the same real path in every run, the
	// user's to keep (and --reset's to clear): never an object a run
	// could put in place, which the sandbox refuses there.
	ignore = append(ignore, m.box.Persist...)
	opts := envdiff.Options{Ignore: ignore}
	if here, err := launch.KernelNamesHere(); err == nil {
		opts.KernelHere = here
	}
	var diff *envdiff.Diff
	var err error
	if m.walked != nil {
		diff, err = m.walked.Compare(m.t.Files, m.site.join.Root(), opts)
	} else {
		diff, err = envdiff.Inspect(m.t, m.rec.Table, m.site.join.Root(), opts)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("inspect this environment against %s: %w", m.path, err)
	}
	m.addHostname()
	m.addAddresses()
	m.addKernel(diff.Kernel)
	m.addPeers()
	if !m.o.quiet {
		fmt.Fprintf(s.err, "envbisect: %d of the %d paths the recording met differ here", len(diff.Objects), diff.Compared)
		if len(m.items) > 0 {
			fmt.Fprintf(s.err, ", and %d start item(s)", len(m.items))
		}
		if len(diff.Kernel) > 0 {
			fmt.Fprintf(s.err, ": searching them with the good objects put in place, untraced but for uname when the kernel's names are in place\n")
		} else {
			fmt.Fprintf(s.err, ": searching them with the good objects put in place, untraced\n")
		}
	}
	// A kernel tunable's good value is not a file of the trace: it
	// comes from the recording's reads (envdiff).
	contents := sandbox.Layers{replay.TraceContents(m.t.Files, m.t), sandbox.MemContents(envobj.TunableValues(diff.Objects))}
	runner := bisect.ObjectRunnerFunc(func(ctx context.Context, r bisect.ObjectRequest) (bisect.ObjectOutcome, error) {
		return m.runOne(ctx, diff, contents, r)
	})
	var progress func(bisect.ObjectProgress)
	if !m.o.quiet {
		progress = func(p bisect.ObjectProgress) {
			if p.Done {
				traced := ""
				if len(p.Outcome.Stops) > 0 {
					traced = ", traced at " + strings.Join(p.Outcome.Stops, ", ") + " only"
				}
				fmt.Fprintf(s.err, "envbisect: object run %d: %s in place: %s (%s%s)\n", p.Run+m.runBase, p.Request.InPlace, p.Outcome.Verdict, p.Outcome.Detail, traced)
			}
		}
	}
	// The search's runs are narrowed to where the recording wrote
	// (faster: reads skip overlayfs); the confirming runs are not, and a
	// narrowed search that confirms nothing is made again in full.
	rep, err := m.locateInPhases(ctx, diff.Objects, runner, bisect.ObjectOptions{
		Repeat: m.o.repeat, CheckRepeatable: true, Progress: progress, Narrow: true,
	})
	if err != nil {
		return nil, nil, err
	}
	return rep, diff, nil
}

// runOne makes one materialized run of request r: the objects it names
// put in place in the run's sandbox, the command started with its start
// items, untraced; a narrowed request (r.Narrow) isolates only the
// directories the recording wrote in (diff.Written) and those its
// objects go in.
func (m *objectSearch) runOne(ctx context.Context, diff *envdiff.Diff, contents sandbox.Contents, r bisect.ObjectRequest) (bisect.ObjectOutcome, error) {
	if err := ctx.Err(); err != nil {
		return bisect.ObjectOutcome{}, err
	}
	ops, err := r.Ops(diff.Objects)
	if err != nil {
		return bisect.ObjectOutcome{}, err
	}
	if err := m.o.box.runReset(ctx, m.s); err != nil {
		return bisect.ObjectOutcome{}, err
	}
	box := *m.box
	box.Objects = ops
	if r.Narrow {
		box.Narrow, box.Writable = true, diff.Written
	}
	var start []align.StartDiff
	var uname map[string]string
	for _, i := range r.Start {
		if i < 0 || i >= len(m.start) {
			continue
		}
		if d := m.start[i]; d.Kind == kindKernel && d.A != nil {
			// uname's answer, rewritten at uname: the command runs traced
			// there only (replay.Spec.Uname).
			if uname == nil {
				uname = map[string]string{}
			}
			uname[d.Name] = d.A.Value
			continue
		}
		if d := m.start[i]; d.Kind == trace.StartHostname && d.A != nil {
			box.Hostname = d.A.Value // a UTS namespace of the run's own (sandbox)
			continue
		}
		if isAddressItem(m.start[i]) {
			box.OwnNetwork = true // a network namespace of the run's own, every address free (sandbox)
			continue
		}
		if m.isPeerItem(i) {
			continue // a stand-in in the run's network (peerNetwork)
		}
		start = append(start, m.start[i])
	}
	network, err := m.peerNetwork(r.Start, &box)
	if err != nil {
		// Without its stand-ins the run would not be the one asked for.
		return bisect.ObjectOutcome{Verdict: verdict.Skip, Detail: "cannot tell: " + err.Error()}, nil
	}
	var standins []string
	if network != nil {
		defer func() {
			if network != nil {
				network.Close()
			}
		}()
	}
	role := "object"
	if r.Role != "" {
		role += "-" + r.Role
	}
	output, closeLog, err := m.o.logs.open(bisect.Request{Run: r.Run + m.runBase, Role: role})
	if err != nil {
		return bisect.ObjectOutcome{}, err
	}
	defer closeLog()
	interrupt, done := m.sigs.add()
	defer done()
	var warned runWarnings
	spec := replay.Spec{Join: m.site.join, Argv: m.argv, Env: m.site.env, Dir: m.site.dir, Start: start, Sandbox: box,
		Judge: m.o.verdict.spec, CPU: m.site.cpu, KeepFDs: m.o.kept, Uname: uname}
	out, err := replay.Execute(ctx, spec, contents, replay.Attach{Stdout: output, Stderr: output, Interrupt: interrupt, Warn: warned.add})
	if ee, refused := launch.ExecRefused(err); refused && ctx.Err() == nil {
		return bisect.ObjectOutcome{Verdict: verdict.Fail, Detail: "did not start: " + ee.Msg}, nil
	}
	if err != nil {
		if ctx.Err() != nil {
			return bisect.ObjectOutcome{}, ctx.Err()
		}
		return bisect.ObjectOutcome{}, err
	}
	if network != nil {
		standins, network = network.Close(), nil
	}
	oo := bisect.ObjectOutcome{Verdict: out.Verdict, Detail: out.Detail, Seconds: out.Seconds, Warnings: warned.list(), Stops: out.Stops}
	if len(standins) > 0 {
		// The command asked a stand-in what the good run did not: its
		// verdict is not one about the peers put in place.
		oo.Verdict = verdict.Skip
		oo.Detail = fmt.Sprintf("cannot tell (%s): a stand-in met what the good run's conversation does not hold: %s",
			out.Detail, strings.Join(standins, "; "))
	}
	if !out.TimedOut && out.Signal == 0 {
		code := out.ExitCode
		oo.Exit = &code
	}
	for _, w := range oo.Warnings {
		m.warn(w) // each once on stderr, as the call-level runs' (sayWarnings)
	}
	if out.Abortive && m.o.abortOnSignal {
		return oo, fmt.Errorf("%w by --abort-on-signal: run %d (%s in place) gave %s, and git bisect run stops at a status of 128 or more",
			errAborted, r.Run, r.InPlace, out.Detail)
	}
	return oo, nil
}

// complete adds to a located result what the search leaves to the
// caller: each cause's first call as show prints it, and for a file whose
// content differs the diff of the good content against this one's.
func (m *objectSearch) complete(rep *bisect.ObjectReport, diff *envdiff.Diff) {
	want := map[uint64]bool{}
	for _, c := range rep.Causes {
		if c.FirstSeq != 0 {
			want[c.FirstSeq] = true
		}
	}
	calls, err := firstCalls(m.path, want)
	if err != nil {
		m.s.warn(fmt.Sprintf("the causes' first calls: %v", err))
	}
	contents := replay.TraceContents(m.t.Files, m.t)
	root := m.site.join.Root()
	fill := func(c *envobj.ResultCause) {
		if call := calls[c.FirstSeq]; call != nil && c.FirstSeq != 0 {
			c.FirstCall = render.CallString(m.rec.Table, call, render.DefaultStringSize)
		}
		c.Fix = withParents(c.Fix, root)
		for k := range c.Fix {
			st := &c.Fix[k]
			if st.Path == "" {
				continue
			}
			o := diff.Object(st.Path)
			if o == nil || !o.Stored {
				continue
			}
			good := readAll(contents.OpenHash(o.Good.SHA256))
			here, err := os.ReadFile(filepath.Join(root, st.Path))
			if good == nil || err != nil || !align.IsText(good) || !align.IsText(here) {
				continue
			}
			st.Diff = bisectDiff(good, here)
		}
	}
	// In the order the program met them: start items (met at its start),
	// then by the first call that met each.
	slices.SortStableFunc(rep.Causes, func(a, b envobj.ResultCause) int {
		return cmp.Compare(metAt(a), metAt(b))
	})
	for i := range rep.Causes {
		fill(&rep.Causes[i])
	}
	if rep.Fix != nil {
		rep.Fix.Steps = nil
		for _, c := range rep.Causes {
			rep.Fix.Steps = append(rep.Fix.Steps, c.Fix...)
		}
	}
}

// metAt orders causes by when the program met them: a start item first,
// then by the first recorded call that met the cause, a cause no call
// met last.
func metAt(c envobj.ResultCause) uint64 {
	switch {
	case c.Start != nil:
		return 0
	case c.FirstSeq == 0:
		return math.MaxUint64
	}
	return c.FirstSeq
}

// readAll reads r to its end and closes it; nil on an error.
func readAll(r io.ReadCloser, err error) []byte {
	if err != nil {
		return nil
	}
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return nil
	}
	return b
}

// bisectDiff is the unified diff of the good content against this one's,
// as the report shows data diffs: "--- good", "+++ here", hunks.
func bisectDiff(good, here []byte) []string {
	lines := align.TextDiff(good, here, 3, 40)
	if len(lines) == 0 {
		return nil
	}
	return append([]string{"--- good", "+++ here"}, lines...)
}

// withParents returns steps with, before a step that restores a file
// whose directory is missing here, the mkdir that makes it: the run that
// validated the fix made the missing parents of what it put in place
// (0755, root's), so the fix must too. root is where this environment's
// paths are.
func withParents(steps []envobj.FixStep, root string) []envobj.FixStep {
	var out []envobj.FixStep
	made := map[string]bool{}
	for _, st := range steps {
		if st.Path != "" {
			dir := filepath.Dir(st.Path)
			if _, err := os.Lstat(filepath.Join(root, dir)); err != nil && os.IsNotExist(err) && !made[dir] {
				mk := envobj.MkdirStep(dir)
				if !containsStep(out, mk) {
					out = append(out, mk)
				}
				made[dir] = true
			}
		}
		out = append(out, st)
	}
	return out
}

// containsStep reports whether steps already hold st.
func containsStep(steps []envobj.FixStep, st envobj.FixStep) bool {
	for _, s := range steps {
		if s.Command == st.Command && s.Text == st.Text && s.Path == st.Path {
			return true
		}
	}
	return false
}

// addHostname adds the host name to the start items the object search
// tries when the good run's differs from the one the runs see here: a
// run puts it in place in a UTS namespace of its own (sandbox.Spec's
// Hostname). The call-level search answers uname(2) from the recording
// instead, so it is an item of the object search only.
func (m *objectSearch) addHostname() {
	var good *string
	for _, e := range m.t.Start {
		if e.Kind == trace.StartHostname {
			v := e.Value
			good = &v
		}
	}
	here, err := launch.HostnameIn(m.site.join)
	if good == nil || err != nil || *good == here {
		return
	}
	d := align.StartDiff{Kind: trace.StartHostname, A: &trace.StartEvent{Kind: trace.StartHostname, Value: *good},
		B: &trace.StartEvent{Kind: trace.StartHostname, Value: here}}
	m.start = append(append([]align.StartDiff(nil), m.start...), d)
	m.items = append(append([]render.StartItem(nil), m.items...), startItems([]align.StartDiff{d})...)
}

// kindKernel is the start kind of the kernel's names (envobj.KindKernel)
// among the search's start items.
const kindKernel = trace.StartKind(envobj.KindKernel)

// addKernel adds the kernel's names that differ here (envdiff's
// Diff.Kernel: the release and version the recorded command's uname got)
// to the start items the object search tries: a run puts them in place
// by rewriting uname's answer, traced at uname only (replay.Spec.Uname).
// The call-level search answers uname from the recording instead, so
// they are items of the object search only.
func (m *objectSearch) addKernel(names []envobj.StartValue) {
	for _, v := range names {
		d := align.StartDiff{Kind: kindKernel, Name: v.Name, A: &trace.StartEvent{Kind: kindKernel, Name: v.Name, Value: *v.Good},
			B: &trace.StartEvent{Kind: kindKernel, Name: v.Name, Value: *v.Here}}
		m.start = append(append([]align.StartDiff(nil), m.start...), d)
		items := startItems([]align.StartDiff{d})
		items[0].Text = v.Says()
		m.items = append(append([]render.StartItem(nil), m.items...), items...)
	}
}
