package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"time"
)

// cell is what one variant measured on one workload.
type cell struct {
	walls  []time.Duration
	maxRSS []int64 // KiB, from wait4
	hwm    []int64 // KiB, the recorder's own VmHWM (envbisect only)
	calls  int64   // system calls counted by minitrace -c (0: unknown)
	skip   string  // could not run here
	fail   string  // a run failed: why

	// envbisect and ebpf: the first successful run's trace
	traceBytes int64
	traceCalls int64  // 0: unknown
	traceNote  string // why traceCalls is unknown

	// ebpf only: what the ring buffer lost, summed over the runs whose
	// trace summary gave it
	lost      losses
	lostRuns  int    // runs counted in lost
	lossyRuns int    // of those, runs that lost anything
	lostNote  string // why a run's losses are unknown (the first reason)
}

// measurement is the whole run's results, for the report.
type measurement struct {
	opts      options
	workloads []workload
	variants  []variant
	cells     map[string]map[string]*cell // workload, variant
	started   time.Time
	elapsed   time.Duration
	// residentHWM is the resident recorder's VmHWM (KiB) at the end, 0
	// if it did not run; residentNote what went wrong stopping it.
	residentHWM  int64
	residentNote string
}

func run(ctx context.Context, o options, out, progress io.Writer) error {
	e, err := setup(ctx, o)
	if err != nil {
		return err
	}
	defer os.RemoveAll(e.tmp)
	var recording []string
	for _, w := range o.workloads {
		if w != "locate" {
			recording = append(recording, w)
		}
	}
	if len(recording) > 0 {
		ro := o
		ro.workloads = recording
		if err := e.measureRecording(ctx, ro, out, progress); err != nil {
			return err
		}
	}
	if slices.Contains(o.workloads, "locate") {
		if len(recording) > 0 {
			fmt.Fprintln(out)
		}
		return e.locate(ctx, o, out, progress)
	}
	return nil
}

// measureRecording runs the recording workloads and writes their tables.
func (e *env) measureRecording(ctx context.Context, o options, out, progress io.Writer) error {
	m := &measurement{opts: o, started: time.Now(), cells: map[string]map[string]*cell{}}
	if slices.Contains(o.variants, "ebpf") {
		if e.ebpfSkip = e.probeEBPF(ctx, o); e.ebpfSkip != "" {
			fmt.Fprintf(progress, "bench: ebpf: n/a: %s\n", e.ebpfSkip)
		}
	}
	if slices.Contains(o.variants, "ebpf-resident") {
		r, err := startResident(ctx, e.envbisect, e.tmp)
		if err != nil {
			e.residentSkip = err.Error()
			fmt.Fprintf(progress, "bench: ebpf-resident: n/a: %s\n", e.residentSkip)
		} else {
			e.resident = r
			defer func() {
				if e.resident != nil {
					e.resident.stop()
				}
			}()
		}
	}
	m.workloads = e.workloads(ctx, o, progress)
	m.variants = e.variants(o)
	for _, w := range m.workloads {
		m.cells[w.name] = map[string]*cell{}
		for _, v := range m.variants {
			c := &cell{skip: v.skip}
			if w.skip != "" {
				c.skip = w.skip
			}
			m.cells[w.name][v.name] = c
		}
		if w.skip != "" {
			continue
		}
		if err := e.measure(ctx, o, m, w, progress); err != nil {
			return err
		}
	}
	m.elapsed = time.Since(m.started)
	if r := e.resident; r != nil {
		if err := r.stop(); err != nil {
			m.residentNote = err.Error()
		}
		m.residentHWM = r.hwm
		e.resident = nil
	}
	return m.report(out)
}

var minitraceCount = regexp.MustCompile(`minitrace: (\d+) calls`)

// measure runs one workload: warm-up, then o.reps rounds in which every
// variant runs once, the order rotating from round to round.
func (e *env) measure(ctx context.Context, o options, m *measurement, w workload, progress io.Writer) error {
	cells := m.cells[w.name]
	for i := 0; i < o.warmup; i++ {
		r := e.run.run(ctx, o.pinned(w.argv), false)
		if err := ctx.Err(); err != nil {
			return err
		}
		if r.err != nil || r.status != 0 {
			for _, c := range cells {
				if c.skip == "" {
					c.skip = fmt.Sprintf("the native run fails: %s", describe(r))
				}
			}
			fmt.Fprintf(progress, "bench: %s: native run fails (%s); skipping the workload\n", w.name, describe(r))
			return nil
		}
	}
	for _, v := range m.variants {
		if c := cells[v.name]; v.warm && c.skip == "" {
			trace := filepath.Join(e.tmp, w.name+"-warm.envb")
			e.run.run(ctx, o.placed(v, v.wrap(w.argv, trace)), v.recorder)
			os.Remove(trace)
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	n := len(m.variants)
	for rep := 0; rep < o.reps; rep++ {
		for k := 0; k < n; k++ {
			v := m.variants[(rep+k)%n]
			c := cells[v.name]
			if c.skip != "" || c.fail != "" {
				continue
			}
			trace := filepath.Join(e.tmp, fmt.Sprintf("%s-%d.envb", w.name, rep))
			r := e.run.run(ctx, o.placed(v, v.wrap(w.argv, trace)), v.recorder)
			if err := ctx.Err(); err != nil {
				return err
			}
			if r.err != nil || r.status != 0 {
				c.fail = describe(r)
				fmt.Fprintf(progress, "bench: %s %s %d/%d: FAILED: %s\n", w.name, v.name, rep+1, o.reps, c.fail)
				os.Remove(trace)
				continue
			}
			fmt.Fprintf(progress, "bench: %s %s %d/%d: %s\n", w.name, v.name, rep+1, o.reps, seconds(r.wall))
			c.walls = append(c.walls, r.wall)
			c.maxRSS = append(c.maxRSS, r.maxRSS)
			if r.hwm > 0 {
				c.hwm = append(c.hwm, r.hwm)
			}
			if v.name == "minitrace" {
				if sm := minitraceCount.FindStringSubmatch(r.stderr); sm != nil {
					c.calls, _ = strconv.ParseInt(sm[1], 10, 64)
				}
			}
			switch v.name {
			case "envbisect", "envbisect-hashes", "envbisect-nocache":
				if c.traceBytes == 0 {
					e.countTrace(ctx, o, c, trace)
				}
			case "ebpf", "ebpf-resident":
				if l, ok := e.readEBPFTrace(ctx, o, c, trace); ok && l.any() {
					fmt.Fprintf(progress, "bench: %s %s %d/%d: lost %d calls, %d chunks, %d process events; %d calls incomplete\n",
						w.name, v.name, rep+1, o.reps, l.Calls, l.Chunks, l.Procs, l.Incomplete)
				}
			}
			os.Remove(trace)
		}
	}
	return nil
}

// countTrace fills in the trace's size and call count.
func (e *env) countTrace(ctx context.Context, o options, c *cell, trace string) {
	st, err := os.Stat(trace)
	if err != nil {
		c.traceNote = "no trace file written"
		return
	}
	c.traceBytes = st.Size()
	n, err := countCalls(ctx, e.envbisect, trace, o.timeout)
	if err != nil {
		c.traceNote = err.Error()
		return
	}
	c.traceCalls = n
}

// readEBPFTrace adds an ebpf run's losses to the cell, from the trace's
// summary, and for the first run fills in its size and call count. It
// returns the run's losses; ok is false when they are unknown.
func (e *env) readEBPFTrace(ctx context.Context, o options, c *cell, trace string) (l losses, ok bool) {
	unknown := func(why string) {
		if c.lostNote == "" {
			c.lostNote = why
		}
	}
	st, err := os.Stat(trace)
	if err != nil {
		unknown("no trace file written")
		if c.traceNote == "" {
			c.traceNote = "no trace file written"
		}
		return losses{}, false
	}
	out, err := showSummary(ctx, e.envbisect, trace, o.timeout)
	if err != nil {
		unknown(err.Error())
		if c.traceBytes == 0 {
			e.countTrace(ctx, o, c, trace)
		}
		return losses{}, false
	}
	if c.traceBytes == 0 {
		c.traceBytes = st.Size()
		if n, ok := summaryCalls(out); ok {
			c.traceCalls = n
		} else {
			c.traceNote = "show --summary --json: no call count in its output"
		}
	}
	l, ok, err = summaryLost(out)
	switch {
	case err != nil:
		unknown(err.Error())
	case !ok:
		unknown("the trace's summary has no \"lost\" object")
	default:
		c.lost = c.lost.plus(l)
		c.lostRuns++
		if l.any() {
			c.lossyRuns++
		}
	}
	return l, ok && err == nil
}

// describe says why a run failed.
func describe(r result) string {
	if r.err != nil {
		return r.err.Error()
	}
	s := fmt.Sprintf("exit status %d", r.status)
	if l := lastLine(r.stderr); l != "" {
		s += ": " + l
	}
	return s
}
