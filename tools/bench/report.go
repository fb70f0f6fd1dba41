package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"
)

// report writes the Markdown tables and the notes under them.
func (m *measurement) report(w io.Writer) error {
	o := m.opts
	place := "unpinned (the scheduler places tracer and tracee; envbisect `--cpu any`)"
	if o.pin {
		place = "pinned: tracer and tracee on the last CPU (`taskset -c N-1`; envbisect `--cpu auto`, its default, which also keeps its encoder threads off that CPU)"
	}
	fmt.Fprintf(w, "### %s, median of %d, %s\n\n", m.started.Format("2006-01-02"), o.reps, place)
	fmt.Fprintf(w, "Machine: %s. Harness run took %s.\n\n", machine(), m.elapsed.Round(time.Second))

	var notes footnotes
	note := notes.ref
	// why is the cell text of a variant that has no time.
	why := func(wl workload, v variant, c *cell) string {
		switch {
		case c.skip != "" && c.skip == v.skip:
			return "n/a " + note(v.header+": "+c.skip) // the same on every workload
		case c.skip != "":
			return "n/a " + note(v.header+" on "+wl.name+": "+c.skip)
		case c.fail != "":
			return "failed " + note(v.header+" on "+wl.name+": "+c.fail)
		}
		return "n/a"
	}

	// Table 1: wall time and ratio to native, and what ebpf lost.
	// ebpf: the ebpf variant was selected and can run here; otherwise its
	// losses column and table are left out (its n/a cell says why).
	// lossy: the eBPF variants (own probe, resident recorder) that run
	// here, each with a losses column and table.
	var lossy []variant
	for _, v := range m.variants {
		if (v.name == "ebpf" || v.name == "ebpf-resident") && v.skip == "" {
			lossy = append(lossy, v)
		}
	}
	ebpf := len(lossy) > 0
	head := []string{"workload", "calls"}
	for _, v := range m.variants {
		head = append(head, v.header)
	}
	for _, v := range lossy {
		head = append(head, v.name+" lost (calls/chunks/incomplete)")
	}
	t := newTable(head...)
	for _, wl := range m.workloads {
		cells := m.cells[wl.name]
		nat := median(cells["native"].walls)
		row := []string{wl.label, callsOf(cells)}
		for _, v := range m.variants {
			c := cells[v.name]
			if len(c.walls) == 0 {
				row = append(row, why(wl, v, c))
				continue
			}
			med := median(c.walls)
			s := seconds(med)
			if v.name != "native" && nat > 0 {
				s += fmt.Sprintf(" (%.2f×)", float64(med)/float64(nat))
			}
			row = append(row, s)
		}
		for _, v := range lossy {
			row = append(row, lostCell(cells[v.name], func(s string) string { return note(v.header + " on " + wl.name + ": " + s) }))
		}
		t.add(row...)
	}
	t.write(w)

	// Table 2: the cost per traced call.
	fmt.Fprintf(w, "\nTime added per system call, µs: (variant − native) / calls.\n\n")
	head = []string{"workload"}
	for _, v := range m.variants[1:] {
		head = append(head, v.header)
	}
	t = newTable(head...)
	for _, wl := range m.workloads {
		cells := m.cells[wl.name]
		nat := median(cells["native"].walls)
		calls := callCount(cells)
		row := []string{wl.name}
		for _, v := range m.variants[1:] {
			c := cells[v.name]
			if len(c.walls) == 0 || nat == 0 || calls == 0 {
				row = append(row, "n/a")
				continue
			}
			us := float64(median(c.walls)-nat) / float64(time.Microsecond) / float64(calls)
			row = append(row, fmt.Sprintf("%.1f", us))
		}
		t.add(row...)
	}
	t.write(w)

	// Keeping file contents: envbisect and envbisect-nocache against
	// envbisect-hashes.
	for _, kept := range []struct{ name, what string }{
		{"envbisect", "`envbisect record` (the content cache holding the files: a repeated recording)"},
		{"envbisect-nocache", "`envbisect record --no-content-cache` (every file read, hashed and compressed: a first recording)"},
	} {
		if !hasVariant(m.variants, kept.name) || !hasVariant(m.variants, "envbisect-hashes") {
			continue
		}
		fmt.Fprintf(w, "\nKeeping file contents (issue 13): median wall time of %s over `envbisect record --max-content 0` (identity and hash only):", kept.what)
		for _, wl := range m.workloads {
			with, without := m.cells[wl.name][kept.name], m.cells[wl.name]["envbisect-hashes"]
			if with == nil || without == nil || len(with.walls) == 0 || len(without.walls) == 0 {
				continue
			}
			fmt.Fprintf(w, " %s %.3f×;", wl.name, float64(median(with.walls))/float64(median(without.walls)))
		}
		fmt.Fprintf(w, "\n")
	}

	// Table 3: peak RSS.
	fmt.Fprintf(w, "\nPeak RSS, MiB: ru_maxrss from wait4, which covers the process and the descendants it reaped (a tracer's tracees too).")
	if hasVariant(m.variants, "envbisect") || ebpf {
		fmt.Fprintf(w, " For envbisect (both backends) also the recorder's own VmHWM, sampled every 20 ms.")
	}
	if m.residentHWM > 0 {
		fmt.Fprintf(w, " ebpf record via recorder: the client's; the resident recorder (`envbisect recorder`, started once for the whole run and serving every workload) had a VmHWM of %s MiB at the end.", mib(m.residentHWM))
	}
	if m.residentNote != "" {
		fmt.Fprintf(w, " Stopping the resident recorder: %s.", m.residentNote)
	}
	fmt.Fprintf(w, "\n\n")
	head = []string{"workload"}
	for _, v := range m.variants {
		head = append(head, v.header)
	}
	t = newTable(head...)
	for _, wl := range m.workloads {
		cells := m.cells[wl.name]
		row := []string{wl.name}
		for _, v := range m.variants {
			c := cells[v.name]
			if len(c.maxRSS) == 0 {
				row = append(row, "n/a")
				continue
			}
			s := mib(median(c.maxRSS))
			if len(c.hwm) > 0 {
				s += " (own " + mib(median(c.hwm)) + ")"
			}
			row = append(row, s)
		}
		t.add(row...)
	}
	t.write(w)

	// Table 4: envbisect's trace.
	var recorders []variant
	for _, v := range m.variants {
		if v.recorder && v.skip == "" {
			recorders = append(recorders, v)
		}
	}
	if len(recorders) > 0 {
		fmt.Fprintf(w, "\nenvbisect traces (the first successful run of each workload")
		if ebpf {
			fmt.Fprintf(w, "; the rows marked ebpf are `record --backend ebpf`'s")
		}
		fmt.Fprintf(w, ").\n\n")
		t = newTable("workload", "trace size", "calls recorded", "bytes per call")
		for _, wl := range m.workloads {
			for _, v := range recorders {
				c := m.cells[wl.name][v.name]
				name := wl.name
				switch v.name {
				case "ebpf":
					name += " (ebpf)"
				case "ebpf-resident":
					name += " (ebpf via recorder)"
				case "envbisect-hashes":
					name += " (--max-content 0)"
				case "envbisect-nocache":
					name += " (--no-content-cache)"
				}
				if c.traceBytes == 0 {
					t.add(name, "n/a", "n/a", "n/a")
					continue
				}
				calls, per := "n/a", "n/a"
				if c.traceCalls > 0 {
					calls = thousands(c.traceCalls)
					per = fmt.Sprintf("%.1f", float64(c.traceBytes)/float64(c.traceCalls))
				} else if c.traceNote != "" {
					calls = "n/a " + note("envbisect show on "+name+": "+c.traceNote)
				}
				t.add(name, size(c.traceBytes), calls, per)
			}
		}
		t.write(w)
	}

	// Table 5: what the eBPF recorder lost.
	for _, v := range lossy {
		what := "`record --backend ebpf --recorder off` (default sizes: `--ring-size auto` (4M per CPU, 8M to 64M), `--max-capture 64K`)"
		if f := strings.Fields(o.ebpfArgs); len(f) > 0 {
			what = "`record --backend ebpf " + strings.Join(f, " ") + "`"
		}
		if v.name == "ebpf-resident" {
			what = "`record --backend ebpf --recorder SOCKET` (through the resident recorder: its ring, `--ring-size auto` (4M per CPU, 8M to 64M), shared by every recording, `--max-capture 64K`)"
		}
		fmt.Fprintf(w, "\nWhat %s lost, summed over its runs: the `lost` object of `envbisect show --summary --json`. "+
			"Truncated buffers were cut at the capture limit on purpose and are not a loss.\n\n", what)
		t = newTable("workload", "runs", "calls lost", "chunks lost", "incomplete calls", "process events lost", "runs with a loss", "truncated buffers")
		for _, wl := range m.workloads {
			c := m.cells[wl.name][v.name]
			if c.lostRuns == 0 {
				t.add(wl.name, fmt.Sprint(len(c.walls)), "n/a", "n/a", "n/a", "n/a", "n/a", "n/a")
				continue
			}
			runs := fmt.Sprint(c.lostRuns)
			if c.lostRuns < len(c.walls) {
				runs = fmt.Sprintf("%d of %d", c.lostRuns, len(c.walls)) // the first table's note says why
			}
			l := c.lost
			t.add(wl.name, runs, thousands(l.Calls), thousands(l.Chunks), thousands(l.Incomplete), thousands(l.Procs),
				fmt.Sprint(c.lossyRuns), thousands(l.Truncated))
		}
		t.write(w)
	}

	fmt.Fprintf(w, "\n`calls`: system calls the workload made, counted by minitrace (syscall-entry stops), or by envbisect's trace where minitrace did not run.")
	if ebpf {
		fmt.Fprintf(w, " `ebpf lost`: calls, buffer chunks and incomplete calls (`lost.calls`, `lost.chunks`, `lost.incomplete` of `envbisect show --summary --json`) that `record --backend ebpf` lost, summed over its runs.")
	}
	fmt.Fprintln(w)
	notes.write(w)
	return nil
}

// callCount is the workload's system call count: minitrace's count, or
// else the number of calls envbisect recorded.
func callCount(cells map[string]*cell) int64 {
	if c := cells["minitrace"]; c != nil && c.calls > 0 {
		return c.calls
	}
	for _, name := range []string{"envbisect", "ebpf"} {
		if c := cells[name]; c != nil && c.traceCalls > 0 {
			return c.traceCalls
		}
	}
	return 0
}

// lostCell is the ebpf variant's `ebpf lost` cell: calls/chunks/incomplete
// summed over its runs; note turns a reason into a footnote marker.
func lostCell(c *cell, note func(string) string) string {
	switch {
	case c == nil || len(c.walls) == 0:
		return "n/a"
	case c.lostRuns == 0:
		return "n/a " + note("losses unknown: "+c.lostNote)
	}
	s := fmt.Sprintf("%d/%d/%d", c.lost.Calls, c.lost.Chunks, c.lost.Incomplete)
	if c.lostRuns < len(c.walls) {
		s += " " + note(fmt.Sprintf("losses of %d of %d runs only: %s", c.lostRuns, len(c.walls), c.lostNote))
	}
	return s
}

func callsOf(cells map[string]*cell) string {
	if n := callCount(cells); n > 0 {
		return thousands(n)
	}
	return "n/a"
}

func hasVariant(vs []variant, name string) bool {
	return slices.ContainsFunc(vs, func(v variant) bool { return v.name == name })
}

// median of a non-empty sample (the lower middle for an even count is
// avoided: the mean of the two middles); zero for an empty one.
func median[T ~int64](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func seconds(d time.Duration) string {
	switch {
	case d >= 100*time.Second:
		return fmt.Sprintf("%.0f s", d.Seconds())
	case d >= 10*time.Second:
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

func mib(kib int64) string { return fmt.Sprintf("%.1f", float64(kib)/1024) }

// size formats a byte count in B, KiB or MiB.
func size(b int64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}

// machine describes the host in one line: CPUs, model, kernel, strace.
func machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	kernel := "unknown kernel"
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		kernel = "Linux " + strings.TrimSpace(string(b))
	}
	s := fmt.Sprintf("%d CPUs (%s), %s", runtime.NumCPU(), model, kernel)
	if out, err := exec.Command("strace", "-V").Output(); err == nil {
		s += ", " + strings.SplitN(strings.TrimSpace(string(out)), "\n", 2)[0]
	}
	return s
}

// table is a Markdown table, the first column left-aligned, the rest right.
type table struct{ rows [][]string }

func newTable(head ...string) *table { return &table{rows: [][]string{head}} }

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) write(w io.Writer) {
	for i, r := range t.rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
		if i == 0 {
			seps := make([]string, len(r))
			for j := range seps {
				seps[j] = "---:"
			}
			seps[0] = "---"
			fmt.Fprintf(w, "|%s|\n", strings.Join(seps, "|"))
		}
	}
}
