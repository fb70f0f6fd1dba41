// Command bench measures what recording costs: it runs a few workloads
// natively, under `envbisect record` (ptrace) and `envbisect record
// --backend ebpf`, under strace (plain and with
// --seccomp-bpf) and under minitrace (minitrace/minitrace.c: the smallest two-stop
// ptrace tracer), and prints a Markdown table of median wall times and
// their ratios to native, ready to paste into docs/performance.md.
//
// Variants are interleaved (every repetition runs each variant once, in a
// rotating order) so that a slow phase of the machine hits them all alike,
// and every variant runs under the same CPU placement: unpinned by default
// (envbisect with --cpu any), or with --pin tracer and tracee on one CPU
// (taskset for the others, envbisect's own default --cpu auto), which on a
// VM makes a ptrace stop several times cheaper; see docs/performance.md.
//
// Each command is started through measure/measure.c, a tiny C helper that
// forks, execs and reaps it with wait4 and reports the wall time and
// ru_maxrss: a child spawned by the Go harness itself would count the
// harness's memory in its ru_maxrss (Go spawns with CLONE_VM|CLONE_VFORK).
// For envbisect the recorder's own VmHWM is also sampled from /proc.
//
// The envbisect-hashes variant is `envbisect record --max-content 0`: the
// files' identity and hash only; against envbisect it gives what keeping
// file contents costs, printed as ratios under the first table. The
// envbisect variant uses a content cache of the harness's own, filled by
// one unmeasured run per workload (a repeated recording); the
// envbisect-nocache variant (`record --no-content-cache`) reads, hashes
// and compresses every file each time, as a first recording does.
//
// The ebpf variant needs root and a kernel that loads the probe; setup
// records /bin/true with it once to find out, and reports it n/a with the
// reason otherwise. After every ebpf run the trace's summary (`envbisect
// show --summary --json`) gives what the ring buffer lost, summed over the
// runs in a column of the first table and in a table of its own;
// -ebpf-args passes flags such as --ring-size 4M or --max-capture 4K.
// The ebpf variant loads its own probe (`--recorder off`), whatever
// recorder runs on the machine.
//
// The ebpf-resident variant records through a resident recorder: the
// harness starts `envbisect recorder --socket TMP/r.sock` once (as root;
// n/a with the reason otherwise), waits until it answers, runs `record
// --backend ebpf --recorder TMP/r.sock` in every round and stops it at
// the end (SIGTERM: it unloads its programs and removes the socket). Its
// RSS cell is the client's; the recorder's own VmHWM at the end is noted
// under the RSS table. -ebpf-args does not apply to it.
//
// The locate workload is a group of its own (locate.go): for each of the
// issue's locate scenarios (internal/scenarios, -scenarios) it records
// the command in the good environment, times native and fully replayed
// runs in the bad one, interleaved, and runs `envbisect locate` once, and
// prints a second table: recorded calls, runs against ⌈log2 N⌉+3, locate's
// wall time and the ratio of a fully replayed run to a native one. It
// needs root (the scenarios mount their environments); -variants does
// not apply to it.
//
// A variant that cannot run here (strace not installed, bin/envbisect not
// built, a run that fails or times out) is reported as n/a or failed, with
// the reason under the table; the other variants still run.
//
//	go run ./tools/bench                       # everything, 5 repetitions
//	go run ./tools/bench -n 3 -workloads shell,python -variants native,strace,minitrace
//	go run ./tools/bench --pin --cloop-native 250ms
//	go run ./tools/bench -variants ebpf -ebpf-args '--ring-size 1M'
//	go run ./tools/bench -workloads locate -scenarios fig79-config,pidfile
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// options are the command-line flags.
type options struct {
	reps          int
	warmup        int
	workloads     []string
	variants      []string
	scenarios     []string // the locate group's scenarios
	pin           bool
	cloopNative   time.Duration
	cloopIters    int
	shellIters    int
	pythonIters   int
	locateIters   int // the locate group's CPU-bound case (0: not run)
	envbisect     string
	root          string
	timeout       time.Duration
	seccompFilter string
	ebpfArgs      string // extra flags of the ebpf variant's record
	quiet         bool
}

func main() {
	var o options
	var workloads, variants, scenarioList string
	fs := flag.NewFlagSet("bench", flag.ExitOnError)
	fs.IntVar(&o.reps, "n", 5, "repetitions of each variant (the median is reported)")
	fs.IntVar(&o.warmup, "warmup", 1, "unmeasured native runs of each workload first (page cache)")
	fs.StringVar(&workloads, "workloads", strings.Join(workloadNames, ","), "comma-separated workloads to run: "+strings.Join(workloadNames, ", "))
	fs.StringVar(&variants, "variants", strings.Join(defaultVariants(), ","), "comma-separated variants to run (native always runs): "+strings.Join(variantNames, ", "))
	fs.StringVar(&scenarioList, "scenarios", strings.Join(scenarioNames(), ","), "comma-separated scenarios of the locate workload: "+strings.Join(scenarioNames(), ", "))
	fs.BoolVar(&o.pin, "pin", false, "put tracer and tracee on one CPU: taskset for the others, envbisect's own default --cpu auto")
	fs.DurationVar(&o.cloopNative, "cloop-native", time.Second, "calibrate cloop's iteration count to about this native run time")
	fs.IntVar(&o.cloopIters, "cloop-iters", 0, "cloop iterations (0: calibrate to -cloop-native)")
	fs.IntVar(&o.shellIters, "shell-iters", 500, "iterations of /bin/true in the shell workload")
	fs.IntVar(&o.pythonIters, "python-iters", 20, "python3 starts in the python workload")
	fs.IntVar(&o.locateIters, "locate-cloop-iters", 3000, "iterations of cloop in the locate group's CPU-bound case, cloop-config (0: leave it out)")
	fs.StringVar(&o.envbisect, "envbisect", "", "the envbisect binary (default: bin/envbisect under -root)")
	fs.StringVar(&o.root, "root", "", "the repository root (default: found from the working directory)")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Minute, "limit for one run; a run over it is killed and reported as failed")
	fs.StringVar(&o.seccompFilter, "seccomp-filter", "", "add \"-e trace=`EXPR`\" to the strace --seccomp-bpf variant (without it that variant stops on every call)")
	fs.StringVar(&o.ebpfArgs, "ebpf-args", "", "extra `FLAGS` of the ebpf variant's envbisect record --backend ebpf (e.g. \"--ring-size 4M --max-capture 4K\"), shown in its header")
	fs.BoolVar(&o.quiet, "q", false, "no progress lines on stderr")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: bench [flags]\n\nPrints Markdown tables of median wall times and ratios to native, and for the locate workload locate's runs and times.\n\n")
		fs.PrintDefaults()
	}
	fs.Parse(os.Args[1:])
	if fs.NArg() > 0 {
		fs.Usage()
		os.Exit(2)
	}
	var err error
	if o.workloads, err = pick(workloads, workloadNames); err == nil {
		o.variants, err = pick(variants, variantNames)
	}
	if err == nil {
		o.scenarios, err = pick(scenarioList, scenarioNames())
	}
	if err == nil && o.reps < 1 {
		err = fmt.Errorf("-n must be at least 1")
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	progress := io.Writer(os.Stderr)
	if o.quiet {
		progress = io.Discard
	}
	if err := run(ctx, o, os.Stdout, progress); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// pick parses a comma-separated selection against the known names, keeping
// the known order.
func pick(list string, known []string) ([]string, error) {
	want := map[string]bool{}
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		found := false
		for _, k := range known {
			if k == s {
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown name %q (known: %s)", s, strings.Join(known, ", "))
		}
		want[s] = true
	}
	var out []string
	for _, k := range known {
		if want[k] {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty selection %q", list)
	}
	return out, nil
}

// defaultVariants are the variants run unless -variants says otherwise:
// all but envbisect-hashes and envbisect-nocache, which are for
// measuring what keeping file contents costs.
func defaultVariants() []string {
	var out []string
	for _, v := range variantNames {
		if v != "envbisect-hashes" && v != "envbisect-nocache" {
			out = append(out, v)
		}
	}
	return out
}
