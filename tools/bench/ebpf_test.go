package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSummaryLost(t *testing.T) {
	for _, tc := range []struct {
		name    string
		out     string
		want    losses
		ok, err bool
	}{
		{"ebpf, nothing lost",
			`{"command":["sh"],"complete":true,"exit_code":0,"lost":{"calls":0,"chunks":0,"procs":0,"incomplete":0,"truncated":10},"calls":731,"syscalls":[]}`,
			losses{Truncated: 10}, true, false},
		{"ebpf, losses",
			`{"lost":{"calls":27,"chunks":1,"procs":2,"incomplete":3,"truncated":0},"calls":5}`,
			losses{Calls: 27, Chunks: 1, Procs: 2, Incomplete: 3}, true, false},
		{"pretty printed, unknown fields kept out",
			"{\n  \"lost\": {\n    \"calls\": 4,\n    \"chunks\": 5,\n    \"future\": 9\n  }\n}\n",
			losses{Calls: 4, Chunks: 5}, true, false},
		{"ptrace trace: no lost", `{"complete":true,"calls":731}`, losses{}, false, false},
		{"lost null", `{"lost":null,"calls":1}`, losses{}, false, false},
		{"lost not an object", `{"lost":"none"}`, losses{}, false, true},
		{"not json", "calls 10\n", losses{}, false, true},
		{"empty", "", losses{}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok, err := summaryLost([]byte(tc.out))
			if got != tc.want || ok != tc.ok || (err != nil) != tc.err {
				t.Errorf("summaryLost(%q) = %+v, %v, %v; want %+v, %v, error %v", tc.out, got, ok, err, tc.want, tc.ok, tc.err)
			}
		})
	}
}

// The summary's call count still comes out of an eBPF summary, whose
// "lost" object has a "calls" of its own.
func TestSummaryCallsWithLost(t *testing.T) {
	out := `{"lost":{"calls":27,"chunks":1,"procs":0,"incomplete":0,"truncated":0},"calls":731,"recorded":731,"syscalls":[{"syscall":"mmap","nr":9,"calls":189,"errors":0}]}`
	if n, ok := summaryCalls([]byte(out)); n != 731 || !ok {
		t.Errorf("summaryCalls = %d, %v; want 731, true", n, ok)
	}
}

func TestLosses(t *testing.T) {
	if (losses{Truncated: 5}).any() {
		t.Error("truncation counted as a loss")
	}
	for _, l := range []losses{{Calls: 1}, {Chunks: 1}, {Procs: 1}, {Incomplete: 1}} {
		if !l.any() {
			t.Errorf("%+v: any() = false", l)
		}
	}
	sum := losses{1, 2, 3, 4, 5}.plus(losses{10, 20, 30, 40, 50})
	if want := (losses{11, 22, 33, 44, 55}); sum != want {
		t.Errorf("plus = %+v, want %+v", sum, want)
	}
}

func TestLostCell(t *testing.T) {
	var notes footnotes
	note := func(s string) string { return notes.ref(s) }
	walls := []time.Duration{time.Second, time.Second, time.Second}
	for _, tc := range []struct {
		name string
		c    *cell
		want string
	}{
		{"no variant", nil, "n/a"},
		{"skipped", &cell{skip: "needs root"}, "n/a"},
		{"zero", &cell{walls: walls, lostRuns: 3, lost: losses{Truncated: 7}}, "0/0/0"},
		{"lossy", &cell{walls: walls, lostRuns: 3, lossyRuns: 1, lost: losses{Calls: 27, Chunks: 1, Incomplete: 2}}, "27/1/2"},
		{"unknown", &cell{walls: walls, lostNote: "show failed"}, "n/a [1]"},
		{"partly known", &cell{walls: walls, lostRuns: 2, lostNote: "show failed"}, "0/0/0 [2]"},
	} {
		if got := lostCell(tc.c, note); got != tc.want {
			t.Errorf("%s: lostCell = %q, want %q", tc.name, got, tc.want)
		}
	}
	if len(notes) != 2 || !strings.Contains(notes[1], "2 of 3 runs") {
		t.Errorf("notes = %q", notes)
	}
}

func TestEBPFArgv(t *testing.T) {
	argv := []string{"/bin/sh", "-c", "true"}
	got := ebpfArgv("bin/envbisect", options{}, "/tmp/t.envb", argv)
	want := []string{"bin/envbisect", "record", "--backend", "ebpf", "--recorder", "off", "--cpu", "any", "-o", "/tmp/t.envb", "--", "/bin/sh", "-c", "true"}
	if !slices.Equal(got, want) {
		t.Errorf("ebpfArgv = %q\nwant %q", got, want)
	}
	o := options{pin: true, ebpfArgs: " --ring-size 4M  --max-capture 4K "}
	got = ebpfArgv("envbisect", o, "t", []string{"true"})
	want = []string{"envbisect", "record", "--backend", "ebpf", "--recorder", "off", "--ring-size", "4M", "--max-capture", "4K", "--cpu", "auto", "-o", "t", "--", "true"}
	if !slices.Equal(got, want) {
		t.Errorf("ebpfArgv with flags, pinned = %q\nwant %q", got, want)
	}
	if h := ebpfHeader(o); h != "ebpf record --ring-size 4M --max-capture 4K" {
		t.Errorf("ebpfHeader = %q", h)
	}
	if h := ebpfHeader(options{}); h != "ebpf record" {
		t.Errorf("ebpfHeader = %q", h)
	}
}

func TestEBPFVariant(t *testing.T) {
	o := options{variants: []string{"envbisect", "ebpf"}}
	e := &env{envbisect: "/nonexistent/envbisect"}
	vs := e.variants(o)
	names := []string{}
	for _, v := range vs {
		names = append(names, v.name)
	}
	if !slices.Equal(names, []string{"native", "envbisect", "ebpf"}) {
		t.Fatalf("variants = %v", names)
	}
	eb := vs[2]
	if !eb.recorder || !eb.selfPlaced || !strings.Contains(eb.skip, "not built") {
		t.Errorf("ebpf variant = %+v; want a self-placed recorder, skipped as not built", eb)
	}
	if !slices.Contains(variantNames, "ebpf") {
		t.Error("ebpf is not among the default variants")
	}

	// Built, but the probe did not load: that reason is the skip.
	e.envbisect = "/bin/true"
	e.ebpfSkip = "needs root"
	if v := e.variants(o)[2]; v.skip != "needs root" {
		t.Errorf("skip = %q, want the probe's reason", v.skip)
	}
}

// The report shows the ebpf variant's ratio, its losses column and the
// loss table.
func TestReportEBPF(t *testing.T) {
	o := options{reps: 2, variants: []string{"ebpf"}}
	e := &env{envbisect: "/bin/true"}
	m := &measurement{opts: o, variants: e.variants(o), started: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC),
		workloads: []workload{{name: "python", label: "python: 20 × python3 imports"}},
		cells: map[string]map[string]*cell{"python": {
			"native": {walls: []time.Duration{time.Second, time.Second}, maxRSS: []int64{1024, 1024}},
			"ebpf": {walls: []time.Duration{1100 * time.Millisecond, 1100 * time.Millisecond}, maxRSS: []int64{2048, 2048},
				traceBytes: 1000, traceCalls: 100, lost: losses{Calls: 3, Truncated: 10}, lostRuns: 2, lossyRuns: 1},
		}}}
	var b bytes.Buffer
	if err := m.report(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| workload | calls | native | ebpf record | ebpf lost (calls/chunks/incomplete) |",
		"| python: 20 × python3 imports | 100 | 1.00 s | 1.10 s (1.10×) | 3/0/0 |",
		"| python (ebpf) | 1000 B | 100 | 10.0 |",
		"| python | 2 | 3 | 0 | 0 | 0 | 1 | 10 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// probeEBPF reports the recorder's own error when the probe does not
// load, and nothing when it does; without root it does not try.
func TestProbeEBPF(t *testing.T) {
	dir := t.TempDir()
	fake := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	e := &env{tmp: dir, run: runner{dir: dir, timeout: 10 * time.Second}}
	e.envbisect = fake("fails", `echo "envbisect: record: eBPF recorder: load programs: operation not permitted" >&2; exit 1`)
	got := e.probeEBPF(context.Background(), options{})
	if os.Geteuid() != 0 {
		if !strings.Contains(got, "needs root") {
			t.Errorf("not root: probeEBPF = %q, want needs root", got)
		}
		return
	}
	if !strings.Contains(got, "fails here") || !strings.Contains(got, "operation not permitted") || !strings.Contains(got, "exit status 1") {
		t.Errorf("probeEBPF = %q, want the recorder's error", got)
	}
	e.envbisect = fake("works", `for a; do case $a in --backend) b=1;; esac; done; [ "$b" = 1 ]`)
	if got := e.probeEBPF(context.Background(), options{}); got != "" {
		t.Errorf("probeEBPF = %q, want \"\"", got)
	}
}
